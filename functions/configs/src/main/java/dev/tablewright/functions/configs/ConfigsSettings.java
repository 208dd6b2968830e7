package dev.tablewright.functions.configs;

import dev.tablewright.lambda.Env;
import dev.tablewright.lambda.Tables;
import dev.tablewright.lambda.Settings;
import dev.tablewright.tools.PreviewTableConfigTool;

/**
 * What the config functions read from their environment, once, when a handler is built: the two tables
 * ({@code CONFIGS_TABLE}, {@code PREVIEWS_TABLE}; by default their logical ids, as the local stack names them, while
 * template.yaml sets the real names) and how many sample rows a preview returns ({@code PREVIEW_SAMPLE_ROWS}). A value
 * that cannot be used stops the function at init with the variable's name.
 */
record ConfigsSettings(String configsTable, String previewsTable, int previewSampleRows) {

    static ConfigsSettings fromEnvironment() {
        Tables tables = Tables.fromEnvironment(Env.all());
        return new ConfigsSettings(tables.configs(), tables.previews(),
                (int) Math.min(Integer.MAX_VALUE, Settings.positive("PREVIEW_SAMPLE_ROWS", Env.get("PREVIEW_SAMPLE_ROWS"),
                        PreviewTableConfigTool.DEFAULT_SAMPLE_ROWS)));
    }
}
