package dev.tablewright.tools;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.json.Json;

import dev.tablewright.config.TableConfig;
import dev.tablewright.configstore.ConfigStore;
import dev.tablewright.configstore.StoredConfigJson;
import dev.tablewright.tool.ToolArguments;
import dev.tablewright.tool.ToolDefinition;

import java.time.Clock;
import java.util.Set;

/**
 * {@code update_table_config}: writes a config directly as its next version, bypassing the preview, so it is kept
 * away from the model: it is core in no context, so it is never sent up front,
 * and its description sends the model to previews. It exists for scripted callers and explicit requests.
 */
public final class UpdateTableConfigTool extends ConfigStoreTool {

    public static final ToolDefinition DEFINITION = new ToolDefinition("update_table_config",
            "Overwrite a saved config directly, as its next version, WITHOUT showing the user a preview. Do not use "
                    + "this for changes the user asked for in the chat: call preview_table_config instead, so the user "
                    + "sees the change and accepts it (accepting saves it). Only for an explicit request to save "
                    + "without a preview. base_version must be the version the change was built on (from "
                    + "get_table_config); if the config has changed since, the call fails with a conflict.",
            Json.objectLiteral("""
                    {"type":"object","properties":{
                      "config_id":{"type":"string","description":"The config to change"},
                      "base_version":{"type":"integer","minimum":1,"description":"The version the change was built on"},
                      "config":{"type":"object","description":"The whole new config (the Config wire format)"}},
                     "required":["config_id","base_version","config"],"additionalProperties":false}"""),
            null, Set.of(), ToolDefinition.RunsOn.FUNCTION, false); // not offered to the model: it bypasses the preview the user accepts

    private final Clock clock;

    public UpdateTableConfigTool(ConfigStore configs, Clock clock) {
        super(DEFINITION, configs);
        this.clock = clock;
    }

    @Override
    protected JsonNode answer(String owner, ToolArguments args) {
        String configId = args.text("config_id", true, 128);
        Long base = integer(args, "base_version", 1, Long.MAX_VALUE);
        if (base == null && !args.has("base_version")) {
            args.error("base_version", "base_version is missing: the version the change was built on (get_table_config)");
        }
        TableConfig config = validConfig(args, "config");
        return StoredConfigJson.config(configs.update(owner, configId, base, config, clock.instant()));
    }
}
