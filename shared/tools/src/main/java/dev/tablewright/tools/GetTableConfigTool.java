package dev.tablewright.tools;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.json.Json;

import dev.tablewright.configstore.ConfigNotFoundException;
import dev.tablewright.configstore.ConfigStore;
import dev.tablewright.configstore.StoredConfigJson;
import dev.tablewright.tool.ToolArguments;
import dev.tablewright.tool.ToolDefinition;

import java.util.Set;

/** {@code get_table_config}: the current version of a saved config, by id or by name. */
public final class GetTableConfigTool extends ConfigStoreTool {

    public static final ToolDefinition DEFINITION = new ToolDefinition("get_table_config",
            "Fetch a saved table config (the Config wire format) with its current version, by config_id or by name. "
                    + "Start here before changing an existing config: operation tools take this config, and a preview "
                    + "of a change is based on this version.",
            Json.objectLiteral("""
                    {"type":"object","properties":{
                      "config_id":{"type":"string","description":"The config's id (cfg_...), e.g. the page context's configId"},
                      "name":{"type":"string","description":"The config's name (case-insensitive), when the id is not known"}},
                     "additionalProperties":false}"""),
            null, Set.of("tables"), ToolDefinition.RunsOn.FUNCTION);

    public GetTableConfigTool(ConfigStore configs) {
        super(DEFINITION, configs);
    }

    @Override
    protected JsonNode answer(String owner, ToolArguments args) {
        String id = args.text("config_id", false, 128);
        String name = args.text("name", false, 200);
        require(args);
        if ((id == null) == (name == null)) {
            throw new BadArguments("config_id", "give exactly one of config_id and name");
        }
        return StoredConfigJson.config(id != null
                ? configs.get(owner, id).orElseThrow(() -> ConfigNotFoundException.config(id))
                : configs.getByName(owner, name).orElseThrow(
                        () -> new ConfigNotFoundException("no config named '" + name + "'")));
    }
}
