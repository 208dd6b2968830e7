package dev.tablewright.tools;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.json.Json;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.config.TableConfig;
import dev.tablewright.configstore.ConfigStore;
import dev.tablewright.configstore.StoredConfigJson;
import dev.tablewright.tool.ToolArguments;
import dev.tablewright.tool.ToolDefinition;

import java.time.Clock;
import java.util.Set;

/** {@code create_table_config}: saves a new config as its version 1 under a fresh id. */
public final class CreateTableConfigTool extends ConfigStoreTool {

    public static final ToolDefinition DEFINITION = new ToolDefinition("create_table_config",
            "Save a new table config (the Config wire format; it needs a name, unique among the user's configs) as "
                    + "version 1, and answer its configId. This saves at once, without the user's accept: when the "
                    + "user should see the table first, call preview_table_config without a config_id instead, and "
                    + "accepting that preview creates the config.",
            Json.objectLiteral("""
                    {"type":"object","properties":{
                      "config":{"type":"object","description":"The new config; its id and version are assigned by the store"}},
                     "required":["config"],"additionalProperties":false}"""),
            null, Set.of(), ToolDefinition.RunsOn.FUNCTION);

    private final Clock clock;

    public CreateTableConfigTool(ConfigStore configs, Clock clock) {
        super(DEFINITION, configs);
        this.clock = clock;
    }

    @Override
    protected JsonNode answer(String owner, ToolArguments args) {
        TableConfig config = validConfig(args, "config");
        if (config.name() == null || config.name().isBlank()) {
            throw new BadArguments("name", "a new config needs a name (unique among the user's configs)");
        }
        ObjectNode out = StoredConfigJson.config(configs.create(owner, config, clock.instant()));
        out.put("created", true);
        return out;
    }
}
