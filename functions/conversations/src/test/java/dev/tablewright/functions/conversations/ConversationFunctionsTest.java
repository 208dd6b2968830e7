package dev.tablewright.functions.conversations;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.conversation.ConversationService;
import dev.tablewright.fakes.dynamodb.DynamoDbEngine;
import dev.tablewright.json.Json;
import dev.tablewright.lambda.HttpApiEventBuilder;
import dev.tablewright.lambda.HttpResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Clock;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The conversation routes as their module wires them, on the template's tables in DynamoDB Local. */
class ConversationFunctionsTest {

    @RegisterExtension
    static final DynamoDbEngine ENGINE = DynamoDbEngine.dynamoDbLocal();

    private final ConversationService service = ConversationApiFunction.service(ENGINE.client(),
            ENGINE.tables().tableName("ConversationsTable"), ENGINE.tables().tableName("UserInputTable"),
            ENGINE.tables().tableName("PreviewsTable"), ENGINE.tables().tableName("ConfigsTable"), Duration.ofDays(1), Clock.systemUTC());

    private HttpResponse rename(String id, String body) {
        return new RenameConversationFunction(service).respond(HttpApiEventBuilder.route(
                "PATCH /conversations/{conversationId}", "/conversations/" + id).caller("carol").body(body).build(), null);
    }

    @Test
    void aNewUserHasNoConversationsAndACursorNotHandedOutIsNamed() {
        HttpResponse empty = new ListConversationsFunction(service).respond(HttpApiEventBuilder.route("GET /conversations", "/conversations")
                .caller("user-" + System.nanoTime()).build(), null);
        assertEquals(200, empty.status());
        JsonNode body = Json.tree(empty.body());
        assertEquals(0, body.path("conversations").size(), body.toString());

        HttpResponse forged = new ListConversationsFunction(service).respond(HttpApiEventBuilder.route("GET /conversations", "/conversations")
                .caller("carol").query("cursor", "not-a-cursor").build(), null);
        assertEquals(400, forged.status());
        assertTrue(Json.write(Json.tree(forged.body())).contains("query.cursor"), Json.write(Json.tree(forged.body())));
    }

    @Test
    void renamingChecksTheTitleThenTheConversation() {
        HttpResponse blank = rename("conv-1", "{\"title\": \"  \"}");
        assertEquals(400, blank.status());
        assertTrue(Json.write(Json.tree(blank.body())).contains("\"title\""));
        HttpResponse unknownField = rename("conv-1", "{\"title\": \"Stock\", \"color\": \"red\"}");
        assertEquals(400, unknownField.status());
        assertTrue(Json.write(Json.tree(unknownField.body())).contains("\"color\""));
        assertEquals(404, rename("conv-missing", "{\"title\": \"Stock\"}").status());
    }
}
