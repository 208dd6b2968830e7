package dev.tablewright.systemtest.conversations;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.codec.ConfigJson;
import dev.tablewright.config.TableConfig;
import dev.tablewright.conversation.ConversationService;
import dev.tablewright.conversation.ConversationTurn;
import dev.tablewright.conversation.DraftSource;
import dev.tablewright.conversation.StoredMessage;
import dev.tablewright.conversation.WorkingDraft;
import dev.tablewright.dynamodb.DynamoConfigStore;
import dev.tablewright.dynamodb.DynamoPreviewAcceptance;
import dev.tablewright.dynamodb.DynamoConversationStore;
import dev.tablewright.dynamodb.DynamoPreviewStore;
import dev.tablewright.functions.conversations.ConversationApiFunction;
import dev.tablewright.functions.userinput.UserInputFunction;
import dev.tablewright.fakes.dynamodb.DynamoDbEngine;
import dev.tablewright.systemtest.http.InProcessHttpApi;
import dev.tablewright.json.Json;
import dev.tablewright.preview.PendingPreview;
import dev.tablewright.preview.PreviewStatus;
import dev.tablewright.userinput.InputRequestService;
import dev.tablewright.toolcontract.FieldType;
import dev.tablewright.toolcontract.InputField;
import dev.tablewright.userinput.NewInputRequest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The conversation routes of template.yaml through their handlers, against DynamoDB Local. */
class ConversationApiTest {

    @RegisterExtension
    static final DynamoDbEngine ENGINE = DynamoDbEngine.dynamoDbLocal();

    static final String ALICE = "alice-sub";
    static final String BOB = "bob-sub";

    static final class ConversationRoutes extends InProcessHttpApi {
        ConversationRoutes(ConversationService service) {
            super("dev.tablewright.functions.conversations.", ConversationService.class, service, "conversation");
        }
    }

    ConversationRoutes api;
    DynamoConversationStore store;
    DynamoPreviewStore previews;
    DynamoConfigStore configs;
    InputRequestService inputs;
    String run;

    @BeforeEach
    void setUp() {
        Map<String, String> env = ENGINE.environment();
        Duration ttl = Duration.ofDays(90);
        api = new ConversationRoutes(ConversationApiFunction.service(ENGINE.client(), env.get("CONVERSATIONS_TABLE"),
                env.get("USER_INPUT_TABLE"), env.get("PREVIEWS_TABLE"), env.get("CONFIGS_TABLE"), ttl, Clock.systemUTC()));
        store = new DynamoConversationStore(ENGINE.client(), env.get("CONVERSATIONS_TABLE"), ttl);
        previews = new DynamoPreviewStore(ENGINE.client(), env.get("PREVIEWS_TABLE"));
        configs = new DynamoConfigStore(ENGINE.client(), env.get("CONFIGS_TABLE"));
        inputs = UserInputFunction.service(ENGINE.client(), env.get("USER_INPUT_TABLE"), InputRequestService.Expiry.DEFAULT, Clock.systemUTC());
        run = UUID.randomUUID().toString().substring(0, 8);
    }

    static final String CONFIG = """
            {"name": "Open orders %s", "data_source": [{"schema": "sales", "source": "orders",
              "select": {"columns": [{"name": "id"}, {"name": "status"}]}}],
             "visual_settings": {"columns": {"id": {"type": "number"}, "status": {"type": "string"}}}}""";

    TableConfig config() {
        ConfigJson.Read read = ConfigJson.read(CONFIG.formatted(run));
        assertTrue(read.ok(), read.errors().toString());
        return read.config();
    }

    void seed(String owner, String id, String text, Instant at, Optional<WorkingDraft> draft) {
        store.saveTurn(owner, id, new ConversationTurn(List.of(
                new StoredMessage("u-" + id, "user", "{\"id\":\"u-" + id + "\",\"role\":\"user\",\"parts\":[{\"type\":\"text\",\"text\":\"" + text + "\"}]}"),
                new StoredMessage("a-" + id, "assistant", "{\"id\":\"a-" + id + "\",\"role\":\"assistant\",\"parts\":[{\"type\":\"text\",\"text\":\"ok\"}]}")),
                draft, text), at);
    }

    @Test
    void theListIsTheCallersNewestFirstAPageAtATime() {
        String owner = "lister-" + run;
        Instant t0 = Instant.parse("2026-11-01T00:00:00Z");
        for (int i = 0; i < 3; i++) {
            seed(owner, run + "-c" + i, "question " + i, t0.plusSeconds(i), Optional.empty());
        }
        seed(BOB + run, run + "-bobs", "bob's", t0.plusSeconds(10), Optional.empty());

        InProcessHttpApi.Answer first = list(owner, "2", null);
        assertEquals(200, first.status(), first.toString());
        assertEquals(List.of(run + "-c2", run + "-c1"), ids(first.body().path("items")));
        JsonNode line = first.body().path("items").get(0);
        assertEquals("question 2", line.path("title").asText());
        assertEquals(t0.plusSeconds(2).toString(), line.path("updatedAt").asText());
        assertTrue(line.has("configId") && line.path("configId").isNull());
        String cursor = first.body().path("nextCursor").asText();
        InProcessHttpApi.Answer second = list(owner, "2", cursor);
        assertEquals(List.of(run + "-c0"), ids(second.body().path("items")));
        assertTrue(second.body().path("nextCursor").isNull());

        assertEquals("query.limit", field(list(owner, "0", null)));
        assertEquals("query.limit", field(list(owner, "lots", null)));
        assertEquals("query.cursor", field(list(owner, null, "bm9wZQ")));
        assertEquals(List.of(), ids(api.call("nobody-" + run, "GET", "/conversations").body().path("items")));
    }

    @Test
    void aConversationOpensWithItsMessagesAndDraftAndOnlyForItsOwner() {
        String id = run + "-open";
        WorkingDraft draft = new WorkingDraft(ConfigJson.writeString(config()), DraftSource.TOOL_RESULT, null, null, null);
        seed(ALICE, id, "Show open orders", Instant.now(), Optional.of(draft));

        InProcessHttpApi.Answer got = api.call(ALICE, "GET", "/conversations/" + id);
        assertEquals(200, got.status(), got.toString());
        assertEquals(id, got.body().path("id").asText());
        assertEquals("Show open orders", got.body().path("title").asText());
        JsonNode messages = got.body().path("messages");
        assertEquals(2, messages.size());
        assertEquals("Show open orders", messages.get(0).path("parts").get(0).path("text").asText(), "messages are UI messages, as objects");
        assertEquals("assistant", messages.get(1).path("role").asText());
        assertEquals("Open orders " + run, got.body().path("workingConfig").path("name").asText());
        assertEquals("tool_result", got.body().path("workingDraft").path("source").asText());

        assertEquals(404, api.call(BOB, "GET", "/conversations/" + id).status(), "another user's conversation does not exist");
        assertEquals(404, api.call(ALICE, "GET", "/conversations/" + run + "-none").status());
        assertEquals("path.conversationId", field(api.call(ALICE, "GET", "/conversations/a%20b")));
    }

    @Test
    void aDraftWaitingOnAPreviewFollowsItsAcceptance() {
        String id = run + "-preview";
        Instant now = Instant.now();
        PendingPreview preview = PendingPreview.create(ALICE, id, null, null, "open orders", config(), null, now, Duration.ofHours(1));
        previews.save(preview);
        seed(ALICE, id, "Show open orders", now, Optional.of(new WorkingDraft(ConfigJson.writeString(config()),
                DraftSource.PENDING_PREVIEW, null, null, preview.previewId())));
        assertEquals("pending_preview", api.call(ALICE, "GET", "/conversations/" + id).body().path("workingDraft").path("source").asText());

        var saved = new DynamoPreviewAcceptance(configs, previews)
                .accept(preview, now.plusSeconds(1));
        JsonNode after = api.call(ALICE, "GET", "/conversations/" + id).body();
        assertEquals("accepted_version", after.path("workingDraft").path("source").asText(), after.toString());
        assertEquals(saved.configId(), after.path("workingDraft").path("configId").asText());
        assertEquals(1, after.path("workingDraft").path("version").asLong());
        assertEquals(saved.configId(), after.path("configId").asText());
    }

    @Test
    void renameTakesOneTitleOfOneToTwoHundredCharacters() {
        String id = run + "-rename";
        seed(ALICE, id, "first words", Instant.now(), Optional.empty());
        InProcessHttpApi.Answer renamed = api.call(ALICE, "PATCH", "/conversations/" + id, "{\"title\": \"  Stock by warehouse  \"}");
        assertEquals(200, renamed.status(), renamed.toString());
        assertEquals("Stock by warehouse", renamed.body().path("title").asText());
        assertEquals("Stock by warehouse", api.call(ALICE, "GET", "/conversations/" + id).body().path("title").asText());

        assertEquals("title", field(api.call(ALICE, "PATCH", "/conversations/" + id, "{\"title\": \"   \"}")));
        assertEquals("title", field(api.call(ALICE, "PATCH", "/conversations/" + id, "{\"title\": \"" + "x".repeat(201) + "\"}")));
        assertEquals("title", field(api.call(ALICE, "PATCH", "/conversations/" + id, "{\"title\": 5}")));
        assertEquals("title", field(api.call(ALICE, "PATCH", "/conversations/" + id, "{}")));
        assertEquals("pinned", field(api.call(ALICE, "PATCH", "/conversations/" + id, "{\"title\": \"x\", \"pinned\": true}")));
        assertEquals(404, api.call(BOB, "PATCH", "/conversations/" + id, "{\"title\": \"mine\"}").status());
        assertEquals("Stock by warehouse", api.call(ALICE, "GET", "/conversations/" + id).body().path("title").asText());
    }

    @Test
    void deleteTakesTheConversationItsInputRequestsAndValuesAndItsPendingPreviews() throws Exception {
        String id = run + "-delete";
        Instant now = Instant.now();
        seed(ALICE, id, "to be deleted", now, Optional.empty());
        NewInputRequest ask = new NewInputRequest("search_database_schema", "call_1", "Which database?",
                List.of(new InputField("database", "Database", null, FieldType.SELECT, true, null, null, null, null,
                        List.of("production", "staging"), null)), true, null);
        inputs.create(ALICE, id, ask);
        inputs.submit(ALICE, id, "call_1", Json.objectLiteral("{\"values\": {\"database\": \"staging\"}}").path("values"));
        assertEquals(1, inputs.list(ALICE, id, Optional.empty()).size());
        assertEquals(1, inputs.savedValues(ALICE, id).conversation().size(), "saved for the conversation");
        PendingPreview preview = PendingPreview.create(ALICE, id, null, null, "open orders", config(), null, now, Duration.ofHours(1));
        previews.save(preview);
        PendingPreview elsewhere = PendingPreview.create(ALICE, run + "-other", null, null, "other", config(), null, now, Duration.ofHours(1));
        previews.save(elsewhere);

        assertEquals(404, api.call(BOB, "DELETE", "/conversations/" + id).status());
        assertTrue(store.find(ALICE, id).isPresent(), "another user's delete removed nothing");

        InProcessHttpApi.Answer deleted = api.call(ALICE, "DELETE", "/conversations/" + id);
        assertEquals(204, deleted.status(), deleted.toString());
        assertEquals(404, api.call(ALICE, "GET", "/conversations/" + id).status());
        org.junit.jupiter.api.Assertions.assertThrows(dev.tablewright.userinput.InputRequestNotFoundException.class,
                () -> inputs.list(ALICE, id, Optional.empty()), "the conversation's input requests are gone");
        assertTrue(new dev.tablewright.dynamodb.DynamoDbSavedValuesStore(ENGINE.client(), ENGINE.environment().get("USER_INPUT_TABLE"))
                .load(ALICE, id, Instant.now()).conversation().isEmpty(), "the conversation's saved values are gone");
        assertEquals(PreviewStatus.REJECTED, previews.find(ALICE, preview.previewId()).orElseThrow().statusAt(Instant.now()),
                "the conversation's preview can no longer be accepted");
        assertEquals(PreviewStatus.PENDING, previews.find(ALICE, elsewhere.previewId()).orElseThrow().statusAt(Instant.now()),
                "another conversation's preview is untouched");
        assertEquals(404, api.call(ALICE, "DELETE", "/conversations/" + id).status());
    }

    InProcessHttpApi.Answer list(String caller, String limit, String cursor) {
        var request = api.request("GET", "/conversations").caller(caller);
        if (limit != null) {
            request.query("limit", limit);
        }
        if (cursor != null) {
            request.query("cursor", cursor);
        }
        return api.send(request);
    }

    static List<String> ids(JsonNode items) {
        return items.findValues("id").stream().map(JsonNode::asText).toList();
    }

    static String field(InProcessHttpApi.Answer answer) {
        assertEquals(400, answer.status(), answer.toString());
        JsonNode error = answer.body().path("error");
        String field = error.path("field").asText(null);
        if (field == null) {
            field = error.path("fields").path(0).path("field").asText(null);
        }
        return field;
    }
}
