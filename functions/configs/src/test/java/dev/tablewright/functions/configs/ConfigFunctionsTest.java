package dev.tablewright.functions.configs;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.fakes.configs.SampleConfigs;
import dev.tablewright.fakes.dynamodb.DynamoDbEngine;
import dev.tablewright.json.Json;
import dev.tablewright.lambda.HttpApiEventBuilder;
import dev.tablewright.lambda.HttpResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Clock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The config routes as their module wires them, on the template's tables in DynamoDB Local. */
class ConfigFunctionsTest {

    @RegisterExtension
    static final DynamoDbEngine ENGINE = DynamoDbEngine.dynamoDbLocal();

    private final ConfigServices services = ConfigServices.of(ENGINE.client(), ENGINE.tables().tableName("ConfigsTable"),
            ENGINE.tables().tableName("PreviewsTable"), Clock.systemUTC());
    private final String owner = "owner-" + System.nanoTime();

    private HttpResponse create(String body) {
        return new CreateConfigFunction(services).respond(HttpApiEventBuilder.route("POST /configs", "/configs")
                .caller(owner).body(body).build(), null);
    }

    @Test
    void aCreatedConfigIsVersionOneAndReadBackByItsOwnerOnly() {
        HttpResponse created = create("{\"config\": " + SampleConfigs.ORDERS + "}");
        assertEquals(201, created.status(), Json.write(Json.tree(created.body())));
        JsonNode saved = Json.tree(created.body());
        String id = saved.path("configId").asText();
        assertEquals(1, saved.path("version").asInt(), saved.toString());

        HttpResponse read = new GetConfigFunction(services).respond(HttpApiEventBuilder.route("GET /configs/{configId}", "/configs/" + id)
                .caller(owner).build(), null);
        assertEquals(200, read.status());
        assertEquals("Active orders", Json.tree(read.body()).path("config").path("name").asText());
        assertEquals(404, new GetConfigFunction(services).respond(HttpApiEventBuilder.route("GET /configs/{configId}", "/configs/" + id)
                .caller("someone-else").build(), null).status());
    }

    @Test
    void everyProblemOfABodyIsNamedInOne400() {
        HttpResponse missing = create("{}");
        assertEquals(400, missing.status());
        assertTrue(Json.write(Json.tree(missing.body())).contains("\"config\""));
        HttpResponse wrong = create("{\"config\": {\"name\": 5}, \"extra\": true}");
        assertEquals(400, wrong.status());
        String errors = Json.write(Json.tree(wrong.body()));
        assertTrue(errors.contains("config.name") && errors.contains("\"extra\""), errors);
    }
}
