package dev.tablewright.tools;

import dev.tablewright.catalogue.ConfigStoreToolDefinitions;
import com.fasterxml.jackson.databind.JsonNode;

import dev.tablewright.configstore.ConfigNotFoundException;
import dev.tablewright.configstore.ConfigStore;
import dev.tablewright.configstore.StoredConfigJson;
import dev.tablewright.toolcontract.ToolArguments;


/** {@code get_table_config}: the current version of a saved config, by id or by name. */
public final class GetTableConfigTool extends ConfigStoreTool {

    public GetTableConfigTool(ConfigStore configs) {
        super(ConfigStoreToolDefinitions.GET_TABLE_CONFIG, configs);
    }

    @Override
    protected JsonNode answer(String owner, ToolArguments args, String callKey) {
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
