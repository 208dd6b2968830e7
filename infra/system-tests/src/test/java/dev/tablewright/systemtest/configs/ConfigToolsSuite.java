package dev.tablewright.systemtest.configs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.catalogue.ConfigStoreToolDefinitions;
import dev.tablewright.catalogue.ToolCatalogue;
import dev.tablewright.fakes.configs.SampleConfigs;
import dev.tablewright.fakes.dynamodb.DynamoDbEngine;
import dev.tablewright.functions.configs.ConfigServices;
import dev.tablewright.functions.configs.CreateTableConfigFunction;
import dev.tablewright.functions.configs.GetTableConfigFunction;
import dev.tablewright.functions.configs.ListTableConfigsFunction;
import dev.tablewright.functions.configs.UpdateTableConfigFunction;
import dev.tablewright.json.Json;
import dev.tablewright.lambda.ToolFunction;
import dev.tablewright.toolcontract.ToolDefinition;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.HashSet;
import java.util.Set;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * get/list/create/update_table_config through their Lambda handlers (the invocation envelope in, the outcome
 * envelope out), against a real DynamoDB engine.
 */
abstract class ConfigToolsSuite {

    abstract DynamoDbEngine engine();

    ToolFunction get;
    ToolFunction list;
    ToolFunction create;
    ToolFunction update;
    ConfigServices services;
    String user;

    @BeforeEach
    void setUp() {
        services = ConfigServices.of(engine().client(), engine().tables().tableName("ConfigsTable"),
                engine().tables().tableName("PreviewsTable"), Clock.systemUTC());
        get = new GetTableConfigFunction(services);
        list = new ListTableConfigsFunction(services);
        create = new CreateTableConfigFunction(services);
        update = new UpdateTableConfigFunction(services);
        user = "u-" + UUID.randomUUID();
    }

    @Test
    void createGetListAndUpdateAConfig() {
        JsonNode created = call(create, user, "{\"config\": " + SampleConfigs.ORDERS + "}");
        assertEquals("ok", created.get("status").asText(), created.toString());
        String id = created.at("/output/configId").asText();
        assertEquals(1, created.at("/output/version").asLong());
        assertEquals(id, created.at("/output/config/id").asText());

        assertEquals(id, call(get, user, "{\"config_id\": \"" + id + "\"}").at("/output/configId").asText());
        assertEquals(id, call(get, user, "{\"name\": \"active ORDERS\"}").at("/output/configId").asText());

        // a config given as JSON text, as models sometimes send it
        String changed = SampleConfigs.ORDERS.replace("Orders still open", "Orders, changed");
        JsonNode updated = call(update, user, Json.write(Json.object().put("config_id", id).put("base_version", 1)
                .put("config", changed)));
        assertEquals("ok", updated.get("status").asText(), updated.toString());
        assertEquals(2, updated.at("/output/version").asLong());
        assertEquals("Orders, changed", updated.at("/output/config/description").asText());

        JsonNode stale = call(update, user, Json.write(Json.object().put("config_id", id).put("base_version", 1)
                .set("config", parse(SampleConfigs.ORDERS))));
        assertEquals("version_conflict", stale.at("/error/code").asText(), stale.toString());
        assertTrue(stale.at("/error/message").asText().contains("get_table_config"), stale.toString());

        call(create, user, "{\"config\": " + SampleConfigs.ORDERS.replace("Active orders", "Second") + "}");
        JsonNode page = call(list, user, "{\"limit\": 1}");
        assertEquals(1, page.at("/output/configs").size());
        JsonNode rest = call(list, user, "{\"limit\": 1, \"cursor\": \"" + page.at("/output/nextCursor").asText() + "\"}");
        assertEquals("Second", rest.at("/output/configs/0/name").asText(), rest.toString());
    }

    /** One view of a saved config and of a listing (StoredConfigJson): a tool answers what the route answers. */
    @Test
    void theToolsAnswerASavedConfigAndAListingAsTheRoutesDo() {
        ConfigRoutes api = new ConfigRoutes(services);
        String id = call(create, user, "{\"config\": " + SampleConfigs.ORDERS + "}").at("/output/configId").asText();
        call(create, user, "{\"config\": " + SampleConfigs.ORDERS.replace("Active orders", "Second") + "}");

        JsonNode got = call(get, user, "{\"config_id\": \"" + id + "\"}").get("output");
        assertEquals(api.call(user, "GET", "/configs/" + id).body(), got);
        JsonNode page = call(list, user, "{\"limit\": 1}").get("output");
        assertEquals(api.send(api.request("GET", "/configs").caller(user).query("limit", "1")).body(), page);
        assertTrue(page.get("nextCursor").isTextual(), page.toString());
        JsonNode last = call(list, user, "{\"cursor\": \"" + page.get("nextCursor").asText() + "\"}").get("output");
        assertEquals(api.send(api.request("GET", "/configs").caller(user).query("cursor", page.get("nextCursor").asText())).body(), last);
        assertTrue(last.get("nextCursor").isNull(), "the last page says so in both channels: " + last);
    }

    @Test
    void badArgumentsAreToolErrorsNamingTheArgument() {
        assertError("invalid_arguments", "userId", call(create, null, "{\"config\": " + SampleConfigs.ORDERS + "}"));
        assertError("invalid_arguments", "config_id", call(get, user, "{\"config_id\": \"a\", \"name\": \"b\"}"));
        assertError("invalid_arguments", "config_id", call(get, user, "{}"));
        assertError("invalid_arguments", "limit", call(list, user, "{\"limit\": 500}"));
        assertError("invalid_arguments", "cursor", call(list, user, "{\"cursor\": \"nope\"}"));
        assertError("invalid_arguments", "name", call(create, user, "{\"config\": "
                + SampleConfigs.ORDERS.replace("\"name\": \"Active orders\", ", "") + "}"));
        assertError("invalid_arguments", "base_version", call(update, user, "{\"config_id\": \"cfg_x\", \"config\": "
                + SampleConfigs.ORDERS + "}"));
        // ConfigValidator's errors stop a broken config from being stored
        JsonNode broken = call(create, user, "{\"config\": " + SampleConfigs.ORDERS.replace("\"operator\": \"eq\"", "\"operator\": \"sounds_like\"") + "}");
        assertEquals("invalid_arguments", broken.at("/error/code").asText(), broken.toString());
        assertTrue(broken.at("/error/errors").toString().contains("operator"), broken.toString());
        assertEquals(0, call(list, user, "{}").at("/output/configs").size(), "nothing was stored");
    }

    @Test
    void anotherUsersConfigIsNotFound() {
        String id = call(create, user, "{\"config\": " + SampleConfigs.ORDERS + "}").at("/output/configId").asText();
        String other = "other-" + user;
        assertError("not_found", "not found", call(get, other, "{\"config_id\": \"" + id + "\"}"));
        assertError("not_found", "Active orders", call(get, other, "{\"name\": \"Active orders\"}"));
        assertError("not_found", "not found", call(update, other, Json.write(Json.object().put("config_id", id)
                .put("base_version", 1).set("config", parse(SampleConfigs.ORDERS)))));
        assertEquals(0, call(list, other, "{}").at("/output/configs").size());
    }

    /** The chat's Invoke can run one call twice (the SDK retries it after a lost answer): it writes once. */
    @Test
    void aCallRunTwiceWritesOnceAndAnswersTheSame() {
        String args = "{\"config\": " + SampleConfigs.ORDERS + "}";
        JsonNode created = call(create, user, args);
        JsonNode again = call(create, user, args);
        assertEquals("ok", again.get("status").asText(), again.toString());
        assertEquals(created.at("/output/configId"), again.at("/output/configId"));
        assertEquals(created.at("/output/config"), again.at("/output/config"));
        assertEquals(1, call(list, user, "{}").at("/output/configs").size(), "one config");
        assertEquals("error", call(create, user, args, "call_2").get("status").asText(), "another call: the name is taken");

        String id = created.at("/output/configId").asText();
        String change = Json.write(Json.object().put("config_id", id).put("base_version", 1)
                .put("config", SampleConfigs.ORDERS.replace("Orders still open", "Orders, once")));
        JsonNode updated = call(update, user, change);
        JsonNode updatedAgain = call(update, user, change);
        assertEquals(2, updated.at("/output/version").asLong(), updated.toString());
        assertEquals(updated.at("/output"), updatedAgain.at("/output"));
        assertEquals(2, services.configs().versions(user, id, 10, null).items().size(), "one version per call");
        assertEquals("version_conflict", call(update, user, change, "call_3").at("/error/code").asText(), "another call: a conflict");
    }

    @Test
    void updateTableConfigIsNeverOfferedUpFrontAndPointsToPreviews() {
        ToolDefinition d = ToolCatalogue.registry().get("update_table_config");
        assertTrue(d.coreIn().isEmpty());
        Set<String> contexts = new HashSet<>(ToolCatalogue.registry().contexts());
        contexts.add("tables");
        for (String context : contexts) {
            assertFalse(ToolCatalogue.registry().coreTools(context).contains(d), context);
        }
        assertTrue(ConfigStoreToolDefinitions.UPDATE_TABLE_CONFIG.description().contains("preview_table_config"));
        assertTrue(ToolCatalogue.registry().coreTools("tables").stream().anyMatch(t -> t.name().equals("get_table_config")));
    }

    // ---- helpers ----

    private static JsonNode call(ToolFunction function, String userId, String arguments) {
        return call(function, userId, arguments, "call_1");
    }

    private static JsonNode call(ToolFunction function, String userId, String arguments, String toolCallId) {
        ObjectNode envelope = Json.object().put("tool", function.definition().name()).put("toolCallId", toolCallId)
                .put("conversationId", "c_1");
        if (userId != null) {
            envelope.put("userId", userId);
        }
        envelope.set("arguments", parse(arguments));
        byte[] answer = function.answer(new ByteArrayInputStream(Json.write(envelope).getBytes(StandardCharsets.UTF_8)), "req-1");
        return parse(new String(answer, StandardCharsets.UTF_8));
    }

    private static JsonNode parse(String json) {
        try {
            return Json.parse(json);
        } catch (Exception e) {
            throw new AssertionError("not JSON: " + json, e);
        }
    }

    private static void assertError(String code, String mentions, JsonNode outcome) {
        assertEquals("error", outcome.get("status").asText(), outcome.toString());
        assertEquals(code, outcome.at("/error/code").asText(), outcome.toString());
        assertTrue(outcome.get("error").toString().contains(mentions), mentions + " in " + outcome);
    }
}
