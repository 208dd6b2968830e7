package dev.tablewright.tools;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.configstore.ConfigStore;
import dev.tablewright.configstore.StoredConfigJson;
import dev.tablewright.json.Json;
import dev.tablewright.tool.ToolArguments;
import dev.tablewright.tool.ToolDefinition;

import java.util.Set;

/** {@code list_table_configs}: the user's saved configs, a page at a time, without their bodies. */
public final class ListTableConfigsTool extends ConfigStoreTool {

    public static final int DEFAULT_LIMIT = 20;

    public static final ToolDefinition DEFINITION = new ToolDefinition("list_table_configs",
            "List the user's saved table configs (id, name, description, current version), oldest first, a page at "
                    + "a time. Use get_table_config to read one.",
            Json.objectLiteral("""
                    {"type":"object","properties":{
                      "limit":{"type":"integer","minimum":1,"maximum":50,"description":"Configs per page (default 20)"},
                      "cursor":{"type":"string","description":"nextCursor of the previous page, to continue"}},
                     "additionalProperties":false}"""),
            null, Set.of(), ToolDefinition.RunsOn.FUNCTION);

    public ListTableConfigsTool(ConfigStore configs) {
        super(DEFINITION, configs);
    }

    @Override
    protected JsonNode answer(String owner, ToolArguments args) {
        Long limit = integer(args, "limit", 1, 50);
        String cursor = args.text("cursor", false, 400);
        require(args);
        return StoredConfigJson.page(configs.list(owner, limit == null ? DEFAULT_LIMIT : limit.intValue(), cursor));
    }
}
