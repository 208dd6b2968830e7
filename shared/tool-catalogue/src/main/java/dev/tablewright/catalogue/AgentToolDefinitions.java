package dev.tablewright.catalogue;

import dev.tablewright.json.Json;
import dev.tablewright.toolcontract.ToolDefinition;
import dev.tablewright.toolcontract.ToolDefinition.Audience;
import dev.tablewright.toolcontract.ToolDefinition.RunsOn;

import java.util.Set;

/**
 * The tools that run inside the agent itself, on the turn's own state (no Lambda of their own): the catalogue search
 * that makes the less common tools discoverable, and the one generic editable-field update. Their implementations
 * are the agent's ({@code dev.tablewright.agent.SearchToolsTool}, {@code EditableFieldTool}).
 */
public final class AgentToolDefinitions {

    public static final String SEARCH_TOOLS_NAME = "search_tools";
    public static final String UPDATE_EDITABLE_STATUS_NAME = "update_editable_status";

    public static final ToolDefinition SEARCH_TOOLS = new ToolDefinition(SEARCH_TOOLS_NAME,
            "Find more tools by what they do. Only the core tools are listed up front; call this with a few words "
                    + "(e.g. 'join another table', 'sort rows', 'list saved configs') and the matching tools become "
                    + "callable from your next step.",
            Json.objectLiteral("""
                    {"type":"object","properties":{
                      "query":{"type":"string","description":"What you want to do, in a few words"},
                      "limit":{"type":"integer","minimum":1,"maximum":5,"description":"How many tools to return (default 3)"}},
                     "required":["query"],"additionalProperties":false}"""),
            null, Set.of("tables"), RunsOn.IN_PROCESS)
            .titled("Find more tools").asLookup().on(Audience.AGENT);

    public static final ToolDefinition UPDATE_EDITABLE_STATUS = new ToolDefinition(UPDATE_EDITABLE_STATUS_NAME,
            "Change one of the page's editable fields (listed under 'Editable fields' in the system prompt) to a new "
                    + "value. The value is validated against the field's type and constraint; the answer says "
                    + "{success, error, previousValue, newValue}. Use null to clear a field that may be cleared.",
            Json.objectLiteral("""
                    {"type":"object","properties":{
                      "fieldName":{"type":"string","description":"The editable field's name"},
                      "value":{"type":["string","null"],"description":"The new value as text (numbers and booleans too), or null to clear"}},
                     "required":["fieldName","value"],"additionalProperties":false}"""),
            null, Set.of("tables"), RunsOn.IN_PROCESS)
            .titled("Change an editable field").changing(ToolDefinition.Access.WRITES_IDEMPOTENTLY).on(Audience.AGENT);

    private AgentToolDefinitions() {
    }
}
