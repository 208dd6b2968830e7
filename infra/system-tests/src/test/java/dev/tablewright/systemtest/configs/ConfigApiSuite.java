package dev.tablewright.systemtest.configs;


import dev.tablewright.fakes.concurrent.SimultaneousCalls;
import dev.tablewright.fakes.configs.SampleConfigs;

import dev.tablewright.codec.ConfigJson;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.config.TableConfig;
import dev.tablewright.dynamodb.DynamoDbClients;
import dev.tablewright.functions.configs.ConfigServices;
import dev.tablewright.systemtest.http.InProcessHttpApi.Answer;
import dev.tablewright.fakes.dynamodb.DynamoDbEngine;
import dev.tablewright.json.Json;
import dev.tablewright.preview.PendingPreview;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The config and preview routes through their HTTP API handlers, against a real DynamoDB engine. Previews are
 * stored the way {@code preview_table_config} stores them (through the PreviewStore); everything else goes through
 * the routes. Written once; each subclass picks the engine: DynamoDB Local always, LocalStack where Docker runs.
 */
abstract class ConfigApiSuite {

    abstract DynamoDbEngine engine();

    ConfigServices services;
    ConfigRoutes api;
    /** Identities unique per test (the engine's tables live for the whole class). */
    String alice;
    String bob;

    @BeforeEach
    void setUp() {
        services = ConfigServices.of(engine().client(), engine().tables().tableName("ConfigsTable"),
                engine().tables().tableName("PreviewsTable"), Clock.systemUTC());
        api = new ConfigRoutes(services);
        String run = UUID.randomUUID().toString().substring(0, 8);
        alice = "alice-" + run;
        bob = "bob-" + run;
    }

    // ---- the accept flow end to end ----

    @Test
    void previewAcceptVersionsAndRestoreEndToEnd() {
        // create path: a preview for a config that does not exist yet
        PendingPreview create = preview(alice, null, null, SampleConfigs.orders("Open orders"), "a table of open orders");
        Answer shown = api.call(alice, "GET", "/previews/" + create.previewId());
        assertEquals(200, shown.status(), shown.toString());
        assertEquals("pending", shown.body().get("status").asText());
        assertFalse(shown.body().get("isUpdate").asBoolean());

        Answer created = api.call(alice, "POST", "/previews/" + create.previewId() + "/accept");
        assertEquals(201, created.status(), created.toString());
        String configId = created.body().at("/config/configId").asText();
        assertEquals(1, created.body().at("/config/version").asLong());
        assertEquals("accepted", created.body().at("/preview/status").asText());

        // update path: the next version
        PendingPreview addColumn = preview(alice, configId, 1L, SampleConfigs.describe(SampleConfigs.orders("Open orders"), "with totals"), "add totals");
        Answer v2 = api.call(alice, "POST", "/previews/" + addColumn.previewId() + "/accept");
        assertEquals(200, v2.status(), v2.toString());
        assertEquals(2, v2.body().at("/config/version").asLong());
        assertEquals("with totals", v2.body().at("/config/config/description").asText());

        Answer current = api.call(alice, "GET", "/configs/" + configId);
        assertEquals(200, current.status());
        assertEquals(2, current.body().get("version").asLong());
        assertEquals(configId, current.body().at("/config/id").asText());

        Answer versions = api.call(alice, "GET", "/configs/" + configId + "/versions");
        assertEquals(200, versions.status());
        assertEquals(List.of(2L, 1L), longs(versions.body().get("versions"), "version"));
        assertEquals("preview", versions.body().at("/versions/0/change").asText());
        assertEquals(addColumn.previewId(), versions.body().at("/versions/0/previewId").asText());

        Answer first = api.call(alice, "GET", "/configs/" + configId + "/versions/1");
        assertEquals(200, first.status());
        assertEquals("Orders still open", first.body().at("/config/description").asText());

        Answer restored = api.call(alice, "POST", "/configs/" + configId + "/versions/1/restore", "{\"baseVersion\": 2}");
        assertEquals(200, restored.status(), restored.toString());
        assertEquals(3, restored.body().get("version").asLong());
        assertEquals("Orders still open", restored.body().at("/config/description").asText());
        Answer after = api.call(alice, "GET", "/configs/" + configId + "/versions");
        assertEquals(List.of(3L, 2L, 1L), longs(after.body().get("versions"), "version"));
        assertEquals(1, after.body().at("/versions/0/restoredFrom").asLong());
        assertEquals("with totals", api.call(alice, "GET", "/configs/" + configId + "/versions/2").body()
                .at("/config/description").asText(), "the version restored over is kept");

        Answer list = api.call(alice, "GET", "/configs");
        assertEquals(200, list.status());
        assertEquals(1, list.body().get("configs").size());
        assertEquals(3, list.body().at("/configs/0/version").asLong());
    }

    @Test
    void theUsersOwnEditsAreVersionsWithOptimisticLocking() {
        Answer created = api.call(alice, "POST", "/configs", body(SampleConfigs.orders("Hand made"), null));
        assertEquals(201, created.status(), created.toString());
        String id = created.body().get("configId").asText();

        Answer v2 = api.call(alice, "PUT", "/configs/" + id, body(SampleConfigs.describe(SampleConfigs.orders("Hand made"), "edited"), 1L));
        assertEquals(200, v2.status(), v2.toString());
        assertEquals(2, v2.body().get("version").asLong());

        Answer stale = api.call(alice, "PUT", "/configs/" + id, body(SampleConfigs.describe(SampleConfigs.orders("Hand made"), "stale"), 1L));
        assertEquals(409, stale.status(), stale.toString());
        assertEquals("version_conflict", stale.errorCode());
        assertEquals(2, stale.body().at("/error/currentVersion").asLong());
        assertEquals("edited", api.call(alice, "GET", "/configs/" + id).body().at("/config/description").asText());

        Answer clash = api.call(alice, "POST", "/configs", body(SampleConfigs.orders("hand MADE"), null));
        assertEquals(409, clash.status());
        assertEquals("name_taken", clash.errorCode());
    }

    // ---- accept semantics ----

    @Test
    void aPreviewIsAcceptedOnlyOnce() {
        String id = config(alice, "Once");
        PendingPreview p = preview(alice, id, 1L, SampleConfigs.describe(SampleConfigs.orders("Once"), "once"), "once");
        assertEquals(200, api.call(alice, "POST", "/previews/" + p.previewId() + "/accept").status());
        Answer again = api.call(alice, "POST", "/previews/" + p.previewId() + "/accept");
        assertEquals(409, again.status());
        assertEquals("preview_not_pending", again.errorCode());
        assertEquals("accepted", again.body().at("/error/currentStatus").asText());
        assertEquals(2, api.call(alice, "GET", "/configs/" + id).body().get("version").asLong());
        assertEquals(409, api.call(alice, "POST", "/previews/" + p.previewId() + "/reject").status(),
                "an accepted preview cannot be rejected afterwards");
    }

    @Test
    void aPreviewOfAVersionThatMovedOnIsAConflictAskingToPreviewAgain() {
        String id = config(alice, "Moved");
        PendingPreview first = preview(alice, id, 1L, SampleConfigs.describe(SampleConfigs.orders("Moved"), "first"), "first");
        PendingPreview second = preview(alice, id, 1L, SampleConfigs.describe(SampleConfigs.orders("Moved"), "second"), "second");
        assertEquals(200, api.call(alice, "POST", "/previews/" + first.previewId() + "/accept").status());
        Answer late = api.call(alice, "POST", "/previews/" + second.previewId() + "/accept");
        assertEquals(409, late.status());
        assertEquals("version_conflict", late.errorCode());
        assertEquals(2, late.body().at("/error/currentVersion").asLong());
        assertTrue(late.body().at("/error/message").asText().contains("preview the change again"), late.toString());
        assertEquals("pending", api.call(alice, "GET", "/previews/" + second.previewId()).body().get("status").asText(),
                "a conflicting preview is left as it was");
    }

    @Test
    void twoPreviewsOfOneVersionAcceptedAtOnceMakeOneVersionAndOneConflict() throws Exception {
        for (int round = 0; round < 4; round++) {
            String id = config(alice, "Race " + round);
            PendingPreview left = preview(alice, id, 1L, SampleConfigs.describe(SampleConfigs.orders("Race " + round), "left"), "left");
            PendingPreview right = preview(alice, id, 1L, SampleConfigs.describe(SampleConfigs.orders("Race " + round), "right"), "right");
            List<Callable<Object>> calls = List.of(
                    () -> api.call(alice, "POST", "/previews/" + left.previewId() + "/accept"),
                    () -> api.call(alice, "POST", "/previews/" + right.previewId() + "/accept"));
            List<Object> outcomes = SimultaneousCalls.race(calls);
            List<Integer> statuses = outcomes.stream().map(o -> ((Answer) o).status()).sorted().toList();
            assertEquals(List.of(200, 409), statuses, "outcomes " + outcomes);
            Answer winner = (Answer) outcomes.stream().filter(o -> ((Answer) o).status() == 200).findFirst().orElseThrow();
            Answer loser = (Answer) outcomes.stream().filter(o -> ((Answer) o).status() == 409).findFirst().orElseThrow();
            assertEquals("version_conflict", loser.errorCode());
            String won = winner.body().at("/config/config/description").asText();
            assertEquals(won, api.call(alice, "GET", "/configs/" + id + "/versions/2").body().at("/config/description").asText());
            assertEquals(List.of(2L, 1L), longs(api.call(alice, "GET", "/configs/" + id + "/versions").body().get("versions"), "version"));
        }
    }

    @Test
    void expiredAndRejectedPreviewsAreRefusedPlainly() {
        String id = config(alice, "Refusals");
        // A preview that lives an hour, seen by a caller two hours later: expired, though DynamoDB's TTL may not
        // have swept it yet (the expiry is enforced on read and in the accept's condition).
        PendingPreview expired = PendingPreview.create(alice, "c_1", id, 1L, "too late",
                SampleConfigs.describe(SampleConfigs.orders("Refusals"), "too late"), null, Instant.now(), Duration.ofHours(1));
        services.previews().save(expired);
        ConfigRoutes later = new ConfigRoutes(ConfigServices.of(engine().client(), engine().tables().tableName("ConfigsTable"),
                engine().tables().tableName("PreviewsTable"), Clock.offset(Clock.systemUTC(), Duration.ofHours(2))));
        assertEquals("expired", later.call(alice, "GET", "/previews/" + expired.previewId()).body().get("status").asText());
        Answer acceptExpired = later.call(alice, "POST", "/previews/" + expired.previewId() + "/accept");
        assertEquals(409, acceptExpired.status());
        assertEquals("expired", acceptExpired.body().at("/error/currentStatus").asText());
        assertEquals("expired", later.call(alice, "POST", "/previews/" + expired.previewId() + "/reject").body()
                .at("/error/currentStatus").asText());

        PendingPreview unwanted = preview(alice, id, 1L, SampleConfigs.describe(SampleConfigs.orders("Refusals"), "no"), "no");
        Answer rejected = api.call(alice, "POST", "/previews/" + unwanted.previewId() + "/reject");
        assertEquals(200, rejected.status(), rejected.toString());
        assertEquals("rejected", rejected.body().get("status").asText());
        Answer acceptRejected = api.call(alice, "POST", "/previews/" + unwanted.previewId() + "/accept");
        assertEquals(409, acceptRejected.status());
        assertEquals("rejected", acceptRejected.body().at("/error/currentStatus").asText());
        assertEquals(1, api.call(alice, "GET", "/configs/" + id).body().get("version").asLong(), "the config is untouched");
    }

    // ---- owners ----

    @Test
    void anotherIdentityGets404OnEveryRouteForTheFirstIdentitysThings() {
        String id = config(alice, "Alice's");
        PendingPreview p = preview(alice, id, 1L, SampleConfigs.describe(SampleConfigs.orders("Alice's"), "hers"), "hers");
        List<Answer> answers = List.of(
                api.call(bob, "GET", "/configs/" + id),
                api.call(bob, "PUT", "/configs/" + id, body(SampleConfigs.orders("Bob's now"), 1L)),
                api.call(bob, "GET", "/configs/" + id + "/versions"),
                api.call(bob, "GET", "/configs/" + id + "/versions/1"),
                api.call(bob, "POST", "/configs/" + id + "/versions/1/restore", "{\"baseVersion\": 1}"),
                api.call(bob, "GET", "/previews/" + p.previewId()),
                api.call(bob, "POST", "/previews/" + p.previewId() + "/accept"),
                api.call(bob, "POST", "/previews/" + p.previewId() + "/reject"));
        for (Answer a : answers) {
            assertEquals(404, a.status(), a.toString());
            assertEquals("not_found", a.errorCode());
        }
        // exactly as if it did not exist
        Answer absent = api.call(bob, "GET", "/configs/cfg_doesnotexist");
        assertEquals(absent.body().at("/error/code"), answers.get(0).body().at("/error/code"));
        assertEquals(0, api.call(bob, "GET", "/configs").body().get("configs").size());
        // and nothing of Alice's changed
        assertEquals(1, api.call(alice, "GET", "/configs/" + id).body().get("version").asLong());
        assertEquals("pending", api.call(alice, "GET", "/previews/" + p.previewId()).body().get("status").asText());
    }

    // ---- bad input ----

    @Test
    void valuesOfTheWrongTypeAreRefusedNotCoercedAndEveryBadFieldIsNamed() {
        String id = config(alice, "Typed");
        String valid = Json.write(api.call(alice, "GET", "/configs/" + id).body().get("config"));
        record Case(String method, String path, String body, String field) {
        }
        List<Case> cases = List.of(
                new Case("PUT", "/configs/" + id, "{\"baseVersion\": \"1\", \"config\": " + valid + "}", "baseVersion"),
                new Case("PUT", "/configs/" + id, "{\"baseVersion\": 1.9, \"config\": " + valid + "}", "baseVersion"),
                new Case("POST", "/configs/" + id + "/versions/1/restore", "{\"baseVersion\": \"1\"}", "baseVersion"),
                new Case("POST", "/configs/" + id + "/versions/1/restore", "{\"baseVersion\": 1.5}", "baseVersion"),
                new Case("POST", "/configs", "{\"config\": " + valid.replaceFirst("\"name\":\"[^\"]*\"", "\"name\":5") + "}", "config.name"));
        for (Case c : cases) {
            Answer a = api.call(alice, c.method(), c.path(), c.body());
            assertEquals(400, a.status(), c + " → " + a);
            assertTrue(a.body().at("/error/fields").toString().contains("\"" + c.field() + "\""), c + " names " + c.field() + " → " + a);
        }
        assertEquals(1, api.call(alice, "GET", "/configs/" + id).body().get("version").asLong(), "nothing was written");

        // six bad fields in one create body: all six are named
        Answer six = api.call(alice, "POST", "/configs", """
                {"config": {"name": 5, "description": 7, "data_source": [{"schema": 1, "source": true,
                  "select": {"columns": [{"name": 3}]}}], "visual_settings": {"page_size": "ten"}}}""");
        assertEquals(400, six.status(), six.toString());
        List<String> named = new java.util.ArrayList<>();
        six.body().at("/error/fields").forEach(f -> named.add(f.path("field").asText()));
        assertEquals(6, named.size(), named.toString());
        assertTrue(named.containsAll(List.of("config.name", "config.description", "config.data_source[0].schema",
                "config.data_source[0].source", "config.data_source[0].select.columns[0].name", "config.visual_settings.page_size")), named.toString());

        // a config that breaks the wire format's invariants is not stored: a selected column without its settings
        String broken = valid.replaceFirst("\"id\":\\{[^}]*\\},?", "");
        Answer put = api.call(alice, "PUT", "/configs/" + id, "{\"baseVersion\": 1, \"config\": " + broken + "}");
        assertEquals(400, put.status(), broken + " → " + put);
        assertTrue(put.body().at("/error/fields").toString().contains("no entry in visual_settings"), put.toString());
        assertEquals(1, api.call(alice, "GET", "/configs/" + id).body().get("version").asLong(), "nothing was written");
    }

    @Test
    void badInputIsA400NamingTheProblemNeverA5xx() {
        String id = config(alice, "Target");
        String big = "{\"config\": {\"name\": \"Big\", \"blob\": \"" + "x".repeat(320_000) + "\"}}";
        String huge = "{\"config\": {\"name\": \"Huge\", \"blob\": \"" + "x".repeat(500_000) + "\"}}";
        record Case(String method, String path, String body, String field) {
        }
        List<Case> cases = List.of(
                new Case("POST", "/configs", "{not json", null),
                new Case("POST", "/configs", "[1, 2]", "body"),
                new Case("POST", "/configs", "", "body"),
                new Case("POST", "/configs", "{\"config\": {\"name\": \"A\"}, \"extra\": 1}", "extra"),
                new Case("POST", "/configs", "{}", "config"),
                new Case("POST", "/configs", "{\"config\": \"not an object\"}", "config"),
                new Case("POST", "/configs", "{\"config\": {\"name\": \"A\", \"data_source\": 5}}", "config.data_source"),
                new Case("POST", "/configs", big, "config"),
                new Case("POST", "/configs", huge, null),
                new Case("PUT", "/configs/" + id, "{\"config\": {\"name\": \"A\"}}", "baseVersion"),
                new Case("PUT", "/configs/" + id, "{\"baseVersion\": \"two\", \"config\": {}}", "baseVersion"),
                new Case("PUT", "/configs/" + id, "{\"baseVersion\": 0, \"config\": {}}", "baseVersion"),
                new Case("PUT", "/configs/" + id, "{\"baseVersion\": 1}", "config"),
                new Case("GET", "/configs/" + id + "/versions/abc", null, "path.version"),
                new Case("GET", "/configs/" + id + "/versions/0", null, "path.version"),
                new Case("GET", "/configs/" + id + "/versions/99999999999999999999", null, "path.version"),
                new Case("POST", "/configs/" + id + "/versions/1/restore", "{}", "baseVersion"),
                new Case("POST", "/configs/" + id + "/versions/1/restore", null, "body"),
                new Case("GET", "/configs/bad%20id!", null, "path.configId"));
        for (Case c : cases) {
            Answer a = api.call(alice, c.method(), c.path(), c.body());
            assertEquals(400, a.status(), c + " → " + a);
            assertNotNull(a.errorCode(), c + " → " + a);
            if (c.field() != null) {
                assertTrue(a.body().at("/error/fields").toString().contains("\"" + c.field()) || a.body().at("/error/message").asText().contains(c.field()),
                        c + " names " + c.field() + " → " + a);
            }
        }
        // query parameters
        for (String limit : List.of("0", "101", "ten")) {
            Answer a = api.send(api.request("GET", "/configs").caller(alice).query("limit", limit));
            assertEquals(400, a.status(), a.toString());
            assertTrue(a.body().toString().contains("query.limit"), a.toString());
        }
        Answer cursor = api.send(api.request("GET", "/configs").caller(alice).query("cursor", "garbage!!"));
        assertEquals(400, cursor.status(), cursor.toString());
        // a missing route parameter (a misconfigured route) and a missing identity
        assertEquals(400, api.send(api.request("GET", "/configs/" + id).caller(alice).pathParameter("configId", null)).status());
        assertEquals(401, api.send(api.request("GET", "/configs/" + id).caller(null)).status());
        assertEquals(1, api.call(alice, "GET", "/configs/" + id).body().get("version").asLong(), "nothing was written");
    }

    // ---- faults ----

    @Test
    void anUnreachableDynamoDbIs503WithRetryAfter() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        var dead = DynamoDbClients.forEndpoint(URI.create("http://127.0.0.1:" + port),
                new DynamoDbClients.Settings(Duration.ofMillis(200), Duration.ofMillis(200), Duration.ofSeconds(3), 2));
        ConfigRoutes down = new ConfigRoutes(ConfigServices.of(dead, engine().tables().tableName("ConfigsTable"),
                engine().tables().tableName("PreviewsTable"), Clock.systemUTC()));
        List<Answer> answers = List.of(
                down.call(alice, "GET", "/configs"),
                down.call(alice, "GET", "/configs/cfg_x"),
                down.call(alice, "POST", "/configs", body(SampleConfigs.orders("Down"), null)),
                down.call(alice, "POST", "/previews/prv_x/accept"),
                down.call(alice, "POST", "/previews/prv_x/reject"));
        for (Answer a : answers) {
            assertEquals(503, a.status(), a.toString());
            assertEquals("unavailable", a.errorCode());
            assertNotNull(a.headers().get("Retry-After"), a.toString());
        }
        assertEquals(0, api.call(alice, "GET", "/configs").body().get("configs").size(), "nothing was written");
    }

    // ---- helpers ----

    /** A config created through the route; answers its id. */
    String config(String owner, String name) {
        Answer a = api.call(owner, "POST", "/configs", body(SampleConfigs.orders(name), null));
        assertEquals(201, a.status(), a.toString());
        return a.body().get("configId").asText();
    }

    /** A pending preview, stored as preview_table_config stores it. */
    PendingPreview preview(String owner, String configId, Long baseVersion, TableConfig config, String description) {
        PendingPreview p = PendingPreview.create(owner, "c_" + owner, configId, baseVersion, description, config,
                Json.object().put("sql", "SELECT 1"), Instant.now(), PendingPreview.DEFAULT_TTL);
        services.previews().save(p);
        return p;
    }

    static String body(TableConfig config, Long baseVersion) {
        ObjectNode out = Json.object();
        if (baseVersion != null) {
            out.put("baseVersion", baseVersion);
        }
        out.set("config", ConfigJson.write(config));
        return Json.write(out);
    }

    static List<Long> longs(JsonNode array, String field) {
        List<Long> out = new ArrayList<>();
        array.forEach(n -> out.add(n.get(field).asLong()));
        return out;
    }
}
