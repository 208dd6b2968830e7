package dev.tablewright.functions.userinput;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.fakes.dynamodb.DynamoDbEngine;
import dev.tablewright.json.Json;
import dev.tablewright.lambda.HttpApiEventBuilder;
import dev.tablewright.lambda.HttpResponse;
import dev.tablewright.userinput.InputRequestService;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Clock;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The user-input functions as their module wires them (the lifecycle on the template's UserInputTable, in DynamoDB
 * Local), through API Gateway's events: what a route answers, and the 400 and 404 it refuses with.
 */
class UserInputFunctionsTest {

    @RegisterExtension
    static final DynamoDbEngine ENGINE = DynamoDbEngine.dynamoDbLocal();

    private final InputRequestService service = UserInputFunction.service(ENGINE.client(),
            ENGINE.tables().tableName("UserInputTable"), InputRequestService.Expiry.DEFAULT, Clock.systemUTC());
    private final String conversation = "conv-" + UUID.randomUUID();

    private static final String FORM = """
            {"toolName": "run_report", "toolCallId": "call_1", "reason": "Which database?",
             "fields": [{"name": "database", "label": "Database", "type": "select", "options": ["production", "staging"], "required": true}]}""";

    private HttpResponse create(String caller, String body) {
        return new CreateInputRequestFunction(service).respond(HttpApiEventBuilder.route(
                "POST /conversations/{conversationId}/input-requests", "/conversations/" + conversation + "/input-requests")
                .caller(caller).body(body).build(), null);
    }

    private HttpResponse get(String caller, String toolCallId) {
        return new GetInputRequestFunction(service).respond(HttpApiEventBuilder.route(
                "GET /conversations/{conversationId}/input-requests/{toolCallId}",
                "/conversations/" + conversation + "/input-requests/" + toolCallId).caller(caller).build(), null);
    }

    @Test
    void aCreatedRequestIsReadBackPendingByItsOwner() {
        HttpResponse created = create("alice", FORM);
        assertEquals(201, created.status(), Json.write(Json.tree(created.body())));
        JsonNode request = Json.tree(get("alice", "call_1").body()).path("request");
        assertEquals("pending", request.path("status").asText(), request.toString());
        assertEquals("run_report", request.path("toolName").asText());
        assertEquals("database", request.path("fields").path(0).path("name").asText());
    }

    @Test
    void anotherUserFindsNothingAndABadBodyIsNamedField() {
        assertEquals(201, create("alice", FORM).status());
        assertEquals(404, get("bob", "call_1").status(), "not the caller's: as if it did not exist");

        HttpResponse bad = create("alice", "{\"toolName\": 7, \"toolCallId\": \"c\", \"color\": \"red\", \"fields\": []}");
        assertEquals(400, bad.status());
        String errors = Json.write(Json.tree(bad.body()));
        assertTrue(errors.contains("\"toolName\"") && errors.contains("\"color\""), errors);
        assertEquals(401, new GetInputRequestFunction(service).respond(HttpApiEventBuilder.route(
                "GET /conversations/{conversationId}/input-requests/{toolCallId}", "/conversations/c/input-requests/x").caller(null).build(), null).status());
    }
}
