package dev.tablewright.tools;

import dev.tablewright.json.Json;

import dev.tablewright.configstore.ConfigNotFoundException;
import dev.tablewright.configstore.ConfigStore;
import dev.tablewright.tool.Tool;
import dev.tablewright.tool.ToolArguments;
import dev.tablewright.tool.ToolDefinition;
import dev.tablewright.tool.ToolInvocation;
import dev.tablewright.tool.ToolOutcome;

import java.util.Set;

/** {@code get_table_config}: the current version of a saved config, by id or by name. */
public final class GetTableConfigTool implements Tool {

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

    private final ConfigStore configs;

    public GetTableConfigTool(ConfigStore configs) {
        this.configs = configs;
    }

    @Override
    public ToolDefinition definition() {
        return DEFINITION;
    }

    @Override
    public ToolOutcome execute(ToolInvocation invocation) {
        return ConfigTools.run(() -> {
            String owner = ConfigTools.owner(invocation);
            ToolArguments args = ToolArguments.of(invocation);
            String id = args.text("config_id", false, 128);
            String name = args.text("name", false, 200);
            ConfigTools.require(args);
            if ((id == null) == (name == null)) {
                throw new ConfigTools.BadArguments("config_id", "give exactly one of config_id and name");
            }
            return ConfigTools.view(id != null
                    ? configs.get(owner, id).orElseThrow(() -> ConfigNotFoundException.config(id))
                    : configs.getByName(owner, name).orElseThrow(
                            () -> new ConfigNotFoundException("no config named '" + name + "'")));
        });
    }
}
