package dev.tablewright.tools;

import dev.tablewright.catalogue.ConfigStoreToolDefinitions;
import com.fasterxml.jackson.databind.JsonNode;

import dev.tablewright.config.TableConfig;
import dev.tablewright.configstore.ConfigStore;
import dev.tablewright.configstore.StoredConfigJson;
import dev.tablewright.toolcontract.ToolArguments;

import java.time.Clock;

/**
 * {@code update_table_config}: writes a config directly as its next version, bypassing the preview, so it is kept
 * away from the model: it is core in no context, so it is never sent up front,
 * and its description sends the model to previews. It exists for scripted callers and explicit requests.
 */
public final class UpdateTableConfigTool extends ConfigStoreTool {

    private final Clock clock;

    public UpdateTableConfigTool(ConfigStore configs, Clock clock) {
        super(ConfigStoreToolDefinitions.UPDATE_TABLE_CONFIG, configs);
        this.clock = clock;
    }

    @Override
    protected JsonNode answer(String owner, ToolArguments args, String callKey) {
        String configId = args.text("config_id", true, 128);
        Long base = integer(args, "base_version", 1, Long.MAX_VALUE);
        if (base == null && !args.has("base_version")) {
            args.error("base_version", "base_version is missing: the version the change was built on (get_table_config)");
        }
        TableConfig config = validConfig(args, "config");
        return StoredConfigJson.config(callKey == null
                ? configs.update(owner, configId, base, config, clock.instant())
                // once per call: the same call run again answers the version it wrote
                : configs.update(owner, configId, base, config, clock.instant(), callKey));
    }
}
