package dev.tablewright.systemtest.userinput;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.dynamodb.DynamoDbSavedValuesStore;
import dev.tablewright.functions.userinput.UserInputFunction;
import dev.tablewright.fakes.dynamodb.DynamoDbEngine;
import dev.tablewright.systemtest.http.InProcessHttpApi;
import dev.tablewright.json.Json;
import dev.tablewright.toolcontract.FieldType;
import dev.tablewright.toolcontract.InputField;
import dev.tablewright.toolcontract.ToolDefinition;
import dev.tablewright.toolcontract.UserInputRequirement;
import dev.tablewright.userinput.InputRequestService;
import dev.tablewright.userinput.UserInputGate;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The user-input lifecycle through its HTTP API handlers, against a real DynamoDB engine. Written once; each
 * subclass picks the engine ({@link DynamoDbEngine}): DynamoDB Local always, LocalStack where Docker runs.
 */
abstract class UserInputApiSuite {

    static final String ALICE = "alice-sub";
    static final String BOB = "bob-sub";

    abstract DynamoDbEngine engine();

    MutableClock clock;
    InputRequestService service;
    UserInputRoutes api;
    String table;
    /** Conversation ids unique per test (the engine's tables live for the whole class). */
    String c1;
    String c2;

    @BeforeEach
    void setUp() {
        clock = new MutableClock(Instant.now());
        table = engine().tables().tableName("UserInputTable");
        service = UserInputFunction.service(engine().client(), table, InputRequestService.Expiry.DEFAULT, clock);
        api = new UserInputRoutes(service);
        String run = UUID.randomUUID().toString().substring(0, 8);
        c1 = "conv-" + run + "-1";
        c2 = "conv-" + run + "-2";
    }

    static String databaseForm(String toolCallId) {
        return """
                {"toolName": "run_report", "toolCallId": "%s", "reason": "Which database and account should I use?",
                 "saveForSession": true,
                 "fields": [
                   {"name": "database", "label": "Database", "type": "select", "options": ["production", "staging"], "required": true},
                   {"name": "account_id", "label": "Account", "type": "text", "required": true, "validation": "^[0-9]{6,12}$"},
                   {"name": "api_key", "label": "API key", "type": "secret", "required": true},
                   {"name": "row_limit", "label": "Row limit", "type": "number", "min": 1, "max": 1000},
                   {"name": "include_archived", "label": "Include archived", "type": "boolean"},
                   {"name": "archive_since", "label": "Archived since", "type": "date", "required": true,
                    "showWhen": {"field": "include_archived", "equals": "true"}}
                 ]}""".formatted(toolCallId);
    }

    InProcessHttpApi.Answer create(String caller, String conversation, String toolCallId) {
        return api.call(caller, "POST", "/conversations/" + conversation + "/input-requests", databaseForm(toolCallId));
    }

    InProcessHttpApi.Answer submit(String caller, String conversation, String toolCallId, String values) {
        return api.call(caller, "POST", "/conversations/" + conversation + "/input-requests/" + toolCallId + "/response",
                "{\"values\": " + values + "}");
    }

    static final String GOOD_VALUES = """
            {"database": "staging", "account_id": "12345678", "api_key": "sk-very-secret", "row_limit": 50,
             "include_archived": true, "archive_since": "2025-01-31"}""";

    /** A second tool that needs the same saved field. */
    static final ToolDefinition SECOND_TOOL = new ToolDefinition("count_rows", "Counts rows", Json.object(),
            new UserInputRequirement("Which database?", List.of(new InputField("database", "Database", null,
                    FieldType.SELECT, true, null, null, null, null, List.of("production", "staging"), null)), true, null),
            null, null);

    @Test
    void lifecycleEndToEnd() {
        // create
        InProcessHttpApi.Answer created = create(ALICE, c1, "call_1");
        assertEquals(201, created.status(), created.body().toString());
        assertEquals("pending", created.body().at("/request/status").asText());
        assertEquals(c1 + "/call_1", created.body().at("/request/requestId").asText());

        // get pending
        InProcessHttpApi.Answer pending = api.call(ALICE, "GET", "/conversations/" + c1 + "/input-requests", null);
        assertEquals(200, pending.status());
        assertEquals(1, pending.body().get("requests").size());
        assertEquals("call_1", pending.body().at("/requests/0/toolCallId").asText());
        assertEquals(6, pending.body().at("/requests/0/fields").size());

        // bad submit: every bad field named in one answer, nothing stored
        InProcessHttpApi.Answer bad = submit(ALICE, c1, "call_1", """
                {"database": "prod", "account_id": "12ab", "row_limit": 5000, "include_archived": "yes", "colour": "red"}""");
        assertEquals(400, bad.status(), bad.body().toString());
        List<String> named = new ArrayList<>();
        bad.body().at("/error/fields").forEach(f -> named.add(f.get("field").asText()));
        assertTrue(named.containsAll(List.of("values.database", "values.account_id", "values.api_key", "values.row_limit",
                "values.include_archived", "values.colour")), named.toString());
        assertEquals(1, api.call(ALICE, "GET", "/conversations/" + c1 + "/input-requests", null).body().get("requests").size(),
                "a bad submit leaves the request pending");
        assertEquals(0, api.call(ALICE, "GET", "/conversations/" + c1 + "/values", null).body().get("values").size(),
                "a bad submit stores no value");

        // the conditional field is required only when shown
        InProcessHttpApi.Answer hiddenMissing = submit(ALICE, c1, "call_1", """
                {"database": "staging", "account_id": "12345678", "api_key": "k", "include_archived": true}""");
        assertEquals(400, hiddenMissing.status());
        assertEquals("values.archive_since", hiddenMissing.body().at("/error/fields/0/field").asText());

        // good submit
        InProcessHttpApi.Answer ok = submit(ALICE, c1, "call_1", GOOD_VALUES);
        assertEquals(200, ok.status(), ok.body().toString());
        assertEquals("completed", ok.body().at("/request/status").asText());
        assertEquals("********", ok.body().at("/request/values/api_key").asText(), "secrets are masked in the answer");
        assertEquals("staging", ok.body().at("/request/values/database").asText());
        assertFalse(ok.body().toString().contains("sk-very-secret"));

        // the request itself, completed, secrets masked
        var one = api.call(ALICE, "GET", "/conversations/" + c1 + "/input-requests/call_1", null);
        assertEquals(200, one.status());
        assertEquals("completed", one.body().at("/request/status").asText());
        assertEquals("********", one.body().at("/request/values/api_key").asText());

        // pending is now empty; completed lists it
        assertEquals(0, api.call(ALICE, "GET", "/conversations/" + c1 + "/input-requests", null).body().get("requests").size());
        var completed = api.send(api.request("GET", "/conversations/" + c1 + "/input-requests").caller(ALICE).query("status", "completed"));
        assertEquals(1, completed.body().get("requests").size());
        assertFalse(completed.body().toString().contains("sk-very-secret"));

        // saved values, secrets masked
        InProcessHttpApi.Answer values = api.call(ALICE, "GET", "/conversations/" + c1 + "/values", null);
        assertEquals(200, values.status());
        assertEquals(6, values.body().get("values").size(), values.body().toString());
        assertFalse(values.body().toString().contains("sk-very-secret"));
        for (JsonNode v : values.body().get("values")) {
            if (v.get("name").asText().equals("api_key")) {
                assertTrue(v.get("secret").asBoolean());
                assertEquals("********", v.get("value").asText());
            }
            assertEquals("conversation", v.get("scope").asText());
        }

        // a second tool needing the same saved field does not ask again ...
        var store = new DynamoDbSavedValuesStore(engine().client(), table);
        var decision = UserInputGate.INSTANCE.decide(SECOND_TOOL, Json.object(), store.load(ALICE, c1, clock.instant()));
        var proceed = assertInstanceOf(UserInputGate.Proceed.class, decision);
        assertEquals("staging", proceed.arguments().get("database").asText());
        // ... and only the tool executor sees the secret's value
        var first = UserInputGate.INSTANCE.decide(firstToolDefinition(), Json.object(), store.load(ALICE, c1, clock.instant()));
        assertEquals("sk-very-secret", assertInstanceOf(UserInputGate.Proceed.class, first).arguments().get("api_key").asText());
        assertEquals(50, ((ObjectNode) ((UserInputGate.Proceed) first).arguments()).get("row_limit").intValue());

        // a new conversation asks again
        var fresh = UserInputGate.INSTANCE.decide(SECOND_TOOL, Json.object(), store.load(ALICE, c2, clock.instant()));
        var ask = assertInstanceOf(UserInputGate.AskUser.class, fresh);
        assertEquals(List.of("database"), ask.request().fields().stream().map(InputField::name).toList());
        assertEquals(404, api.call(ALICE, "GET", "/conversations/" + c2 + "/values", null).status());
    }

    /** The form of {@link #databaseForm} as a tool would declare it. */
    static ToolDefinition firstToolDefinition() {
        try {
            JsonNode form = Json.parse(databaseForm("x"));
            List<InputField> fields = new ArrayList<>();
            form.get("fields").forEach(f -> fields.add(dev.tablewright.toolcontract.InputFieldJson.read(dev.tablewright.json.JsonFields.of(
                    (com.fasterxml.jackson.databind.node.ObjectNode) f, "fields", (path, problem) -> {
                        throw new IllegalStateException(path + ": " + problem);
                    }, dev.tablewright.json.JsonFields.Wording.PLAIN), true)));
            return new ToolDefinition("run_report", "Runs a report", Json.object(),
                    new UserInputRequirement(form.get("reason").asText(), fields, true, null), null, null);
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void anAnswerTheUserChoseNotToRememberCompletesTheRequestAndSavesNothing() {
        assertEquals(201, create(ALICE, c1, "call_1").status());
        InProcessHttpApi.Answer ok = api.call(ALICE, "POST", "/conversations/" + c1 + "/input-requests/call_1/response",
                "{\"values\": " + GOOD_VALUES + ", \"remember\": false}");
        assertEquals(200, ok.status(), ok.body().toString());
        assertEquals("completed", ok.body().at("/request/status").asText());
        assertEquals("staging", ok.body().at("/request/values/database").asText(), "the tool still gets this answer");
        assertEquals(0, ok.body().get("saved").size(), ok.body().toString());
        assertEquals(0, api.call(ALICE, "GET", "/conversations/" + c1 + "/values", null).body().get("values").size(),
                "nothing is kept for later tools");

        // remember must be a boolean
        assertEquals(201, create(ALICE, c1, "call_2").status());
        InProcessHttpApi.Answer bad = api.call(ALICE, "POST", "/conversations/" + c1 + "/input-requests/call_2/response",
                "{\"values\": " + GOOD_VALUES + ", \"remember\": \"no\"}");
        assertEquals(400, bad.status(), bad.body().toString());
        assertTrue(bad.body().toString().contains("remember"), bad.body().toString());
    }

    @Test
    void concurrentSubmitsCompleteTheRequestExactlyOnce() throws Exception {
        assertEquals(201, create(ALICE, c1, "call_race").status());
        int submitters = 32;
        ExecutorService pool = Executors.newFixedThreadPool(submitters);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<InProcessHttpApi.Answer>> answers = new ArrayList<>();
        try {
            for (int i = 0; i < submitters; i++) {
                int n = i;
                answers.add(pool.submit(() -> {
                    start.await();
                    return submit(ALICE, c1, "call_race", GOOD_VALUES.replace("\"row_limit\": 50", "\"row_limit\": " + (n + 1)));
                }));
            }
            start.countDown();
            int ok = 0;
            int conflict = 0;
            for (Future<InProcessHttpApi.Answer> f : answers) {
                InProcessHttpApi.Answer a = f.get();
                if (a.status() == 200) {
                    ok++;
                } else if (a.status() == 409) {
                    conflict++;
                    assertEquals("completed", a.body().at("/error/currentStatus").asText());
                } else {
                    throw new AssertionError("unexpected answer " + a.status() + " " + a.body());
                }
            }
            assertEquals(1, ok, "exactly one submit wins");
            assertEquals(submitters - 1, conflict, "every other submit gets 409");
        } finally {
            pool.shutdownNow();
        }
        // one stored completion, values written once
        var items = engine().client().query(b -> b.tableName(table).consistentRead(true)
                .keyConditionExpression("pk = :pk")
                .expressionAttributeValues(Map.of(":pk", AttributeValue.fromS("O#" + ALICE + "#C#" + c1)))).items();
        var requests = items.stream().filter(i -> i.get("sk").s().startsWith("R#")).toList();
        assertEquals(1, requests.size());
        assertEquals("completed", requests.getFirst().get("status").s());
        String winner = requests.getFirst().get("values").m().get("row_limit").s();
        var values = items.stream().filter(i -> i.get("sk").s().startsWith("V#")).toList();
        assertEquals(6, values.size());
        for (var v : values) {
            assertEquals("1", v.get("writes").n(), "value " + v.get("name").s() + " written once");
        }
        assertEquals(winner, values.stream().filter(v -> v.get("name").s().equals("row_limit")).findFirst().orElseThrow().get("value").s(),
                "the saved values are the winning submit's");
    }

    @Test
    void theConditionalWriteAloneLetsOnlyOneOfManyCompletionsThrough() throws Exception {
        // Below the handler's own status check: 32 writers holding the same pending snapshot race on the store.
        assertEquals(201, create(ALICE, c1, "call_store_race").status());
        var store = new dev.tablewright.dynamodb.DynamoDbInputRequestStore(engine().client(), table, java.time.Duration.ofDays(7));
        var pendingSnapshot = store.find(ALICE, c1, "call_store_race").orElseThrow();
        int writers = 32;
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<String>> outcomes = new ArrayList<>();
        try {
            for (int i = 0; i < writers; i++) {
                String value = "writer-" + i;
                outcomes.add(pool.submit(() -> {
                    start.await();
                    try {
                        store.complete(pendingSnapshot, Map.of("note", value), List.of(new dev.tablewright.userinput.SavedValue("note", value,
                                false, dev.tablewright.toolcontract.ValueScope.CONVERSATION, "t", "call_store_race", clock.instant(),
                                clock.instant().plus(Duration.ofDays(7)))), clock.instant());
                        return "ok";
                    } catch (dev.tablewright.userinput.InputRequestConflictException e) {
                        return e.currentStatus().wireName();
                    }
                }));
            }
            start.countDown();
            List<String> results = new ArrayList<>();
            for (Future<String> f : outcomes) {
                results.add(f.get());
            }
            assertEquals(1, results.stream().filter("ok"::equals).count(), results.toString());
            assertEquals(writers - 1, results.stream().filter("completed"::equals).count(), results.toString());
        } finally {
            pool.shutdownNow();
        }
        var note = engine().client().getItem(b -> b.tableName(table).consistentRead(true).key(Map.of(
                "pk", AttributeValue.fromS("O#" + ALICE + "#C#" + c1), "sk", AttributeValue.fromS("V#note")))).item();
        assertEquals("1", note.get("writes").n(), "the saved value was written by the winning transaction only");
        assertEquals(note.get("value").s(), store.find(ALICE, c1, "call_store_race").orElseThrow().values().get("note"),
                "the request's values and the saved value come from the same writer");
    }

    @Test
    void anotherIdentityGets404OnEveryRouteAndChangesNothing() {
        assertEquals(201, create(ALICE, c1, "call_1").status());
        assertEquals(201, create(ALICE, c1, "call_2").status());
        assertEquals(200, submit(ALICE, c1, "call_2", GOOD_VALUES).status());
        var userScoped = api.call(ALICE, "POST", "/conversations/" + c1 + "/input-requests", """
                {"toolName": "pick_region", "toolCallId": "call_3", "reason": "Region?", "saveForSession": true, "scope": "user",
                 "fields": [{"name": "region", "type": "select", "options": ["eu", "us"], "required": true}]}""");
        assertEquals(201, userScoped.status(), userScoped.body().toString());
        assertEquals(200, submit(ALICE, c1, "call_3", "{\"region\": \"eu\"}").status());

        String base = "/conversations/" + c1;
        assertEquals(404, api.call(BOB, "GET", base + "/input-requests", null).status(), "list");
        var everything = api.send(api.request("GET", base + "/input-requests").caller(BOB).query("status", "all"));
        assertEquals(404, everything.status(), "list all");
        assertEquals(404, submit(BOB, c1, "call_1", GOOD_VALUES).status(), "submit");
        assertEquals(404, api.call(BOB, "GET", base + "/input-requests/call_1", null).status(), "get one");
        assertEquals(404, api.call(BOB, "POST", base + "/input-requests/call_1/cancel", null).status(), "cancel");
        assertEquals(404, api.call(BOB, "GET", base + "/values", null).status(), "values");
        assertEquals(404, api.call(BOB, "DELETE", "/users/me/values/region", null).status(), "clear user value");
        var bobsValues = api.call(BOB, "GET", "/users/me/values", null);
        assertEquals(200, bobsValues.status());
        assertEquals(0, bobsValues.body().get("values").size());
        // an ownerId in the body is refused, never believed
        var spoof = api.call(BOB, "POST", base + "/input-requests",
                databaseForm("call_9").replaceFirst("\\{", "{\"ownerId\": \"" + ALICE + "\", "));
        assertEquals(400, spoof.status());
        // IAM callers are isolated the same way
        var iam = api.send(api.request("GET", base + "/values").iamCaller("arn:aws:iam::123456789012:user/alice"));
        assertEquals(404, iam.status());

        // Bob's create of "c1" makes Bob's own conversation: Alice's is untouched and stays invisible to him
        assertEquals(201, create(BOB, c1, "call_1").status());
        var bobs = api.call(BOB, "GET", base + "/input-requests", null);
        assertEquals(1, bobs.body().get("requests").size());
        assertEquals(200, submit(BOB, c1, "call_1", GOOD_VALUES.replace("staging", "production")).status());

        var alice = api.call(ALICE, "GET", base + "/input-requests", null);
        assertEquals(1, alice.body().get("requests").size(), "alice's call_1 is still pending");
        var aliceValues = api.call(ALICE, "GET", base + "/values", null).body().get("values");
        for (JsonNode v : aliceValues) {
            if (v.get("name").asText().equals("database")) {
                assertEquals("staging", v.get("value").asText());
            }
        }
        assertEquals(1, api.call(ALICE, "GET", "/users/me/values", null).body().get("values").size());
        assertEquals(204, api.call(ALICE, "DELETE", "/users/me/values/region", null).status());
        assertEquals(0, api.call(ALICE, "GET", "/users/me/values", null).body().get("values").size());
    }

    @Test
    void userScopedValuesCarryAcrossConversationsUntilCleared() {
        String form = """
                {"toolName": "pick_region", "toolCallId": "call_r", "reason": "Region?", "saveForSession": true, "scope": "user",
                 "fields": [{"name": "region", "type": "select", "options": ["eu", "us"], "required": true}]}""";
        String user = "carol-" + c1;
        assertEquals(201, api.call(user, "POST", "/conversations/" + c1 + "/input-requests", form).status());
        assertEquals(200, submit(user, c1, "call_r", "{\"region\": \"us\"}").status());
        ToolDefinition tool = new ToolDefinition("pick_region", "", Json.object(), new UserInputRequirement("Region?",
                List.of(new InputField("region", null, null, FieldType.SELECT, true, null, null, null, null, List.of("eu", "us"), null)),
                true, dev.tablewright.toolcontract.ValueScope.USER), null, null);
        var store = new DynamoDbSavedValuesStore(engine().client(), table);
        assertInstanceOf(UserInputGate.Proceed.class, UserInputGate.INSTANCE.decide(tool, Json.object(), store.load(user, c2, clock.instant())),
                "a user-scoped value serves a new conversation too");
        assertEquals("us", service.knownValues(user, c2).asSessionValues().get("region"),
                "the executor's view of a conversation that never asked includes the user's values");
        assertEquals(204, api.call(user, "DELETE", "/users/me/values/region", null).status());
        assertEquals(404, api.call(user, "DELETE", "/users/me/values/region", null).status());
        assertInstanceOf(UserInputGate.AskUser.class, UserInputGate.INSTANCE.decide(tool, Json.object(), store.load(user, c2, clock.instant())),
                "after clearing, the user is asked again");
    }

    @Test
    void secondSubmitCancelledAndExpiredRequestsAre409WithTheirStatus() {
        assertEquals(201, create(ALICE, c1, "call_a").status());
        assertEquals(200, submit(ALICE, c1, "call_a", GOOD_VALUES).status());
        var again = submit(ALICE, c1, "call_a", GOOD_VALUES);
        assertEquals(409, again.status());
        assertEquals("completed", again.body().at("/error/currentStatus").asText());
        assertEquals(409, api.call(ALICE, "POST", "/conversations/" + c1 + "/input-requests/call_a/cancel", null).status());
        assertEquals(409, create(ALICE, c1, "call_a").status(), "a tool call id is used once");

        assertEquals(201, create(ALICE, c1, "call_b").status());
        var cancelled = api.call(ALICE, "POST", "/conversations/" + c1 + "/input-requests/call_b/cancel", null);
        assertEquals(200, cancelled.status());
        assertEquals("cancelled", cancelled.body().at("/request/status").asText());
        var late = submit(ALICE, c1, "call_b", GOOD_VALUES);
        assertEquals(409, late.status());
        assertEquals("cancelled", late.body().at("/error/currentStatus").asText());

        assertEquals(201, create(ALICE, c1, "call_c").status());
        clock.advance(Duration.ofHours(25)); // past the 24 h default; TTL may not have deleted it yet: enforced on read
        assertEquals(0, api.call(ALICE, "GET", "/conversations/" + c1 + "/input-requests", null).body().get("requests").size());
        var expired = api.send(api.request("GET", "/conversations/" + c1 + "/input-requests").caller(ALICE).query("status", "expired"));
        assertEquals(1, expired.body().get("requests").size());
        var tooLate = submit(ALICE, c1, "call_c", GOOD_VALUES);
        assertEquals(409, tooLate.status());
        assertEquals("expired", tooLate.body().at("/error/currentStatus").asText());
        assertEquals(201, create(ALICE, c1, "call_c").status(), "an expired request's tool call id may be asked again");
    }

    @Test
    void savedValuesExpireWithTheirConversation() {
        assertEquals(201, create(ALICE, c1, "call_1").status());
        assertEquals(200, submit(ALICE, c1, "call_1", GOOD_VALUES).status());
        clock.advance(Duration.ofDays(6));
        assertEquals(6, api.call(ALICE, "GET", "/conversations/" + c1 + "/values", null).body().get("values").size());
        clock.advance(Duration.ofDays(2));
        assertEquals(404, api.call(ALICE, "GET", "/conversations/" + c1 + "/values", null).status(),
                "past 7 days the conversation reads as gone");
        var store = new DynamoDbSavedValuesStore(engine().client(), table);
        assertInstanceOf(UserInputGate.AskUser.class, UserInputGate.INSTANCE.decide(SECOND_TOOL, Json.object(), store.load(ALICE, c1, clock.instant())));
    }

    @Test
    void badInputIs400WithAJsonErrorNever5xx() {
        assertEquals(201, create(ALICE, c1, "call_1").status());
        String base = "/conversations/" + c1 + "/input-requests";
        List<InProcessHttpApi.Answer> answers = new ArrayList<>();

        var malformed = api.call(ALICE, "POST", base, "{\"toolName\": ");
        assertEquals("malformed_json", malformed.errorCode());
        answers.add(malformed);
        var malformedSubmit = api.call(ALICE, "POST", base + "/call_1/response", "{values: }");
        assertEquals("malformed_json", malformedSubmit.errorCode());
        answers.add(malformedSubmit);

        var missingParam = api.send(api.request("POST", base + "/call_1/response").caller(ALICE)
                .pathParameter("toolCallId", null).body("{\"values\": {}}"));
        assertEquals("path.toolCallId", missingParam.body().at("/error/fields/0/field").asText());
        answers.add(missingParam);
        answers.add(api.send(api.request("GET", base).caller(ALICE).pathParameter("conversationId", null)));

        var oversized = api.call(ALICE, "POST", base + "/call_1/response",
                "{\"values\": {\"account_id\": \"" + "1".repeat(70_000) + "\"}}");
        assertEquals("body_too_large", oversized.errorCode());
        answers.add(oversized);

        var unknownTop = api.call(ALICE, "POST", base + "/call_1/response", "{\"values\": {}, \"extra\": 1}");
        assertEquals("extra", unknownTop.body().at("/error/fields/0/field").asText());
        answers.add(unknownTop);

        var wrongTypes = submit(ALICE, c1, "call_1", """
                {"database": 3, "account_id": 12345678, "api_key": ["x"], "row_limit": "many", "include_archived": 1}""");
        List<String> named = new ArrayList<>();
        wrongTypes.body().at("/error/fields").forEach(f -> named.add(f.get("field").asText()));
        assertTrue(named.containsAll(List.of("values.database", "values.account_id", "values.api_key", "values.row_limit",
                "values.include_archived")), named.toString());
        answers.add(wrongTypes);
        answers.add(submit(ALICE, c1, "call_1", "\"not an object\""));
        answers.add(submit(ALICE, c1, "call_1", "{\"archive_since\": \"31/01/2025\", \"include_archived\": true}"));

        var badForm = api.call(ALICE, "POST", base, """
                {"toolName": "Bad Name", "toolCallId": "call/x", "reason": "", "fields": [
                  {"name": "a", "type": "text", "validation": "([a-z"},
                  {"name": "a", "type": "select"},
                  {"name": "n", "type": "number", "min": 5, "max": 1},
                  {"name": "c", "type": "text", "showWhen": {"field": "nope", "equals": "x"}}]}""");
        List<String> formFields = new ArrayList<>();
        badForm.body().at("/error/fields").forEach(f -> formFields.add(f.get("field").asText()));
        assertTrue(formFields.containsAll(List.of("toolName", "toolCallId", "reason", "fields[0].validation", "fields[1].name",
                "fields[1].options", "fields[2].max", "fields[3].showWhen.field")), formFields.toString());
        answers.add(badForm);
        var badType = api.call(ALICE, "POST", base, databaseForm("call_t").replace("\"type\": \"boolean\"", "\"type\": \"colour\""));
        assertEquals("fields[4].type", badType.body().at("/error/fields/0/field").asText());
        answers.add(badType);
        answers.add(api.call(ALICE, "POST", base, databaseForm("call_s").replace("\"saveForSession\": true", "\"saveForSession\": \"yes\"")));
        answers.add(api.send(api.request("GET", base).caller(ALICE).query("status", "nonsense")));

        // values of the wrong JSON type are refused, not coerced: a number field's "5", a min given as text
        var quotedNumber = submit(ALICE, c1, "call_1", """
                {"database": "staging", "account_id": "123456", "api_key": "k", "row_limit": "5"}""");
        assertEquals("values.row_limit", quotedNumber.body().at("/error/fields/0/field").asText(), quotedNumber.toString());
        answers.add(quotedNumber);
        var quotedMin = api.call(ALICE, "POST", base, """
                {"toolName": "typed_tool", "toolCallId": "call_q", "reason": "r",
                 "fields": [{"name": "n", "type": "number", "min": "1"}]}""");
        assertTrue(quotedMin.body().toString().contains("fields[0].min"), quotedMin.toString());
        answers.add(quotedMin);

        // six fields of the wrong type in one create body: all six are named
        var sixBad = api.call(ALICE, "POST", base, """
                {"toolName": 5, "toolCallId": 6, "reason": true, "saveForSession": "yes",
                 "fields": [{"name": 1, "type": "number", "min": "1"}]}""");
        List<String> sixNamed = new ArrayList<>();
        sixBad.body().at("/error/fields").forEach(f -> sixNamed.add(f.get("field").asText()));
        assertEquals(List.of("toolName", "toolCallId", "reason", "fields[0].name", "fields[0].min", "saveForSession"), sixNamed, sixBad.toString());
        answers.add(sixBad);

        // a pathological pattern against a long value is cut off by the step budget, not left to hang
        var slow = api.call(ALICE, "POST", base, """
                {"toolName": "slow_tool", "toolCallId": "call_slow", "reason": "r",
                 "fields": [{"name": "v", "type": "text", "required": true, "validation": "^(.*a){12}$"}]}""");
        assertEquals(201, slow.status());
        var slowSubmit = submit(ALICE, c1, "call_slow", "{\"v\": \"" + "a".repeat(3000) + "x\"}");
        assertEquals("values.v", slowSubmit.body().at("/error/fields/0/field").asText());
        answers.add(slowSubmit);

        for (InProcessHttpApi.Answer a : answers) {
            assertEquals(400, a.status(), String.valueOf(a.body()));
            assertEquals("application/json", a.headers().get("Content-Type"));
            assertTrue(a.body().at("/error/message").isTextual(), a.body().toString());
        }
        // nothing of the above was stored
        assertEquals(2, api.call(ALICE, "GET", base, null).body().get("requests").size());
        assertEquals(0, api.call(ALICE, "GET", "/conversations/" + c1 + "/values", null).body().get("values").size());
    }

    @Test
    void unknownRequestsAndConversationsAre404() {
        assertEquals(404, api.call(ALICE, "GET", "/conversations/" + c2 + "/input-requests", null).status());
        assertEquals(201, create(ALICE, c1, "call_1").status());
        assertEquals(404, submit(ALICE, c1, "call_missing", GOOD_VALUES).status());
        assertEquals(404, api.call(ALICE, "POST", "/conversations/" + c1 + "/input-requests/call_missing/cancel", null).status());
        assertNull(api.call(ALICE, "GET", "/conversations/" + c2 + "/values", null).body().at("/values").textValue());
    }
}
