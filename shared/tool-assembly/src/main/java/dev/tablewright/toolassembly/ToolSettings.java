package dev.tablewright.toolassembly;

import dev.tablewright.catalogue.DataSources;
import dev.tablewright.lambda.Settings;
import dev.tablewright.userinput.InputRequestService;

import java.util.List;
import java.util.Map;

/**
 * What a door's tools read from its function's environment, once, when it is built. A value that cannot be used
 * stops the function at init with the variable's name.
 *
 * @param dataSources    the data sources the database tools offer ({@code DATA_SOURCES})
 * @param userInputTable {@code USER_INPUT_TABLE}; null when not set
 * @param inputExpiry    {@code INPUT_REQUEST_TTL_HOURS} (24), {@code SAVED_VALUES_TTL_DAYS} (7)
 */
public record ToolSettings(List<String> dataSources, String userInputTable, InputRequestService.Expiry inputExpiry) {

    public ToolSettings {
        dataSources = List.copyOf(dataSources);
    }

    public static ToolSettings fromEnvironment(Map<String, String> env) {
        String table = env.get("USER_INPUT_TABLE");
        return new ToolSettings(DataSources.namesOf(env.get("DATA_SOURCES")), table == null || table.isBlank() ? null : table,
                Settings.inputRequestExpiry(env));
    }
}
