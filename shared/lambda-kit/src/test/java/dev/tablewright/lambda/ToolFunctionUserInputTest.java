package dev.tablewright.lambda;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.json.Json;
import dev.tablewright.toolcontract.FieldType;
import dev.tablewright.toolcontract.InputField;
import dev.tablewright.toolcontract.Tool;
import dev.tablewright.toolcontract.ToolDefinition;
import dev.tablewright.toolcontract.ToolInvocation;
import dev.tablewright.toolcontract.ToolOutcome;
import dev.tablewright.toolcontract.UserInputRequirement;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/** Every tool Lambda runs the user-input gate: missing values → needs_input; known session values → merged arguments. */
class ToolFunctionUserInputTest {

    static final ToolDefinition QUERY = new ToolDefinition("query_database", "Runs a query on the chosen database.", Json.object(),
            new UserInputRequirement("Which database should I query?", List.of(
                    new InputField("database_name", "Database", null, FieldType.SELECT, true, null, null, null, null,
                            List.of("production", "staging", "development"), null),
                    new InputField("api_token", "Token", null, FieldType.SECRET, true, null, null, null, null, null, null)),
                    true, null), null, null);

    static final class QueryFunction extends ToolFunction {
        QueryFunction() {
            super(new Tool() {
                @Override
                public ToolDefinition definition() {
                    return QUERY;
                }

                @Override
                public ToolOutcome execute(ToolInvocation invocation) {
                    ObjectNode out = Json.object();
                    out.put("database", invocation.arguments().get("database_name").asText());
                    out.put("tokenLength", invocation.arguments().get("api_token").asText().length());
                    return ToolOutcome.ok(out);
                }
            });
        }
    }

    private static JsonNode answer(String envelope) throws Exception {
        byte[] out = new QueryFunction().answer(new ByteArrayInputStream(envelope.getBytes(StandardCharsets.UTF_8)), "req-1");
        return Json.parse(new String(out, StandardCharsets.UTF_8));
    }

    @Test
    void missingValuesAnswerNeedsInputWithOnlyTheMissingFields() throws Exception {
        JsonNode a = answer("""
                {"tool": "query_database", "toolCallId": "call_1", "conversationId": "c1", "userId": "u1",
                 "arguments": {"sql": "select 1"}, "sessionValues": {"database_name": "staging"}}""");
        assertEquals("needs_input", a.get("status").asText(), a.toString());
        assertEquals(1, a.at("/request/fields").size());
        assertEquals("api_token", a.at("/request/fields/0/name").asText());
        assertEquals("Which database should I query?", a.at("/request/reason").asText());
    }

    @Test
    void sessionValuesAreMergedIntoTheArguments() throws Exception {
        JsonNode a = answer("""
                {"tool": "query_database", "toolCallId": "call_2", "conversationId": "c1", "userId": "u1",
                 "arguments": {"sql": "select 1"}, "sessionValues": {"database_name": "staging", "api_token": "s3cr3t"}}""");
        assertEquals("ok", a.get("status").asText(), a.toString());
        assertEquals("staging", a.at("/output/database").asText());
        assertEquals(6, a.at("/output/tokenLength").asInt());
        assertFalse(a.toString().contains("s3cr3t"));
    }
}
