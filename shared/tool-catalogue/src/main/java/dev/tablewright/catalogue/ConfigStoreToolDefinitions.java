package dev.tablewright.catalogue;

import dev.tablewright.json.Json;
import dev.tablewright.toolcontract.ToolDefinition;
import dev.tablewright.toolcontract.ToolDefinition.Access;
import dev.tablewright.toolcontract.ToolDefinition.Audience;
import dev.tablewright.toolcontract.ToolDefinition.RunsOn;

import java.util.Set;

/**
 * The tools over the user's saved configs ({@code functions/configs}). {@code update_table_config} writes a config
 * directly as its next version, bypassing the preview, so no door offers it: it exists for scripted callers.
 */
public final class ConfigStoreToolDefinitions {

    public static final ToolDefinition GET_TABLE_CONFIG = new ToolDefinition("get_table_config",
            "Fetch a saved table config (the Config wire format) with its current version, by config_id or by name. "
                    + "Start here before changing an existing config: operation tools take this config, and a preview "
                    + "of a change is based on this version.",
            Json.objectLiteral("""
                    {"type":"object","properties":{
                      "config_id":{"type":"string","description":"The config's id (cfg_...), e.g. the page context's configId"},
                      "name":{"type":"string","description":"The config's name (case-insensitive), when the id is not known"}},
                     "additionalProperties":false}"""),
            null, Set.of("tables"), RunsOn.FUNCTION)
            .titled("Read a saved table config").asLookup().on(Audience.AGENT, Audience.MCP_HOST);

    public static final ToolDefinition LIST_TABLE_CONFIGS = new ToolDefinition("list_table_configs",
            "List the user's saved table configs (id, name, description, current version), oldest first, a page at "
                    + "a time. Use get_table_config to read one.",
            Json.objectLiteral("""
                    {"type":"object","properties":{
                      "limit":{"type":"integer","minimum":1,"maximum":50,"description":"Configs per page (default 20)"},
                      "cursor":{"type":"string","description":"nextCursor of the previous page, to continue"}},
                     "additionalProperties":false}"""),
            null, Set.of(), RunsOn.FUNCTION)
            .titled("List saved table configs").asLookup().on(Audience.AGENT, Audience.MCP_HOST);

    public static final ToolDefinition CREATE_TABLE_CONFIG = new ToolDefinition("create_table_config",
            "Save a new table config (the Config wire format; it needs a name, unique among the user's configs) as "
                    + "version 1, and answer its configId. This saves at once, without the user's accept: when the "
                    + "user should see the table first, call preview_table_config without a config_id instead, and "
                    + "accepting that preview creates the config.",
            Json.objectLiteral("""
                    {"type":"object","properties":{
                      "config":{"type":"object","description":"The new config; its id and version are assigned by the store"}},
                     "required":["config"],"additionalProperties":false}"""),
            null, Set.of(), RunsOn.FUNCTION)
            .titled("Save a new table config").changing(Access.WRITES).on(Audience.AGENT); // found through the catalogue search only

    public static final ToolDefinition UPDATE_TABLE_CONFIG = new ToolDefinition("update_table_config",
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
            null, Set.of(), RunsOn.FUNCTION)
            .titled("Overwrite a saved table config").changing(Access.WRITES)
            .on(); // offered on no door: it bypasses the preview the user accepts

    private ConfigStoreToolDefinitions() {
    }
}
