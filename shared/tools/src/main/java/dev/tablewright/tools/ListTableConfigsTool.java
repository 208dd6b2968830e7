package dev.tablewright.tools;

import dev.tablewright.catalogue.ConfigStoreToolDefinitions;
import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.configstore.ConfigStore;
import dev.tablewright.configstore.StoredConfigJson;
import dev.tablewright.toolcontract.ToolArguments;


/** {@code list_table_configs}: the user's saved configs, a page at a time, without their bodies. */
public final class ListTableConfigsTool extends ConfigStoreTool {

    public static final int DEFAULT_LIMIT = 20;

    public ListTableConfigsTool(ConfigStore configs) {
        super(ConfigStoreToolDefinitions.LIST_TABLE_CONFIGS, configs);
    }

    @Override
    protected JsonNode answer(String owner, ToolArguments args, String callKey) {
        Long limit = integer(args, "limit", 1, 50);
        String cursor = args.text("cursor", false, 400);
        require(args);
        return StoredConfigJson.page(configs.list(owner, limit == null ? DEFAULT_LIMIT : limit.intValue(), cursor));
    }
}
