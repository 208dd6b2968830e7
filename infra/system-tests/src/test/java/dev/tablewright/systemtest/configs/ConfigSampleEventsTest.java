package dev.tablewright.systemtest.configs;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.fakes.dynamodb.DynamoDbEngine;
import dev.tablewright.localstack.invoke.InvokeCommand;
import dev.tablewright.fakes.template.SamTemplate;
import dev.tablewright.json.Json;
import dev.tablewright.lambda.Env;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The config tools' sample events of infra/events, run the way {@code infra/bin/invoke} runs them (the handler's
 * no-arg constructor, its environment through {@link Env}), against DynamoDB Local: create, then get by name, then list.
 */
class ConfigSampleEventsTest {

    @RegisterExtension
    static final DynamoDbEngine ENGINE = DynamoDbEngine.dynamoDbLocal();

    static final Path ROOT = SamTemplate.locate().getParent();

    @AfterEach
    void clearEnv() {
        Env.clearOverrides();
    }

    @Test
    void createGetAndListAnswerOk() throws Exception {
        Env.override(ENGINE.environment());
        SamTemplate template = SamTemplate.load(ROOT.resolve("template.yaml"));

        JsonNode created = invoke(template, "CreateTableConfigFunction", "create-table-config.json");
        assertEquals("ok", created.path("status").asText(), created::toString);
        String id = created.at("/output/configId").asText();

        JsonNode got = invoke(template, "GetTableConfigFunction", "get-table-config.json");
        assertEquals("ok", got.path("status").asText(), got::toString);
        assertEquals(id, got.at("/output/configId").asText());

        JsonNode listed = invoke(template, "ListTableConfigsFunction", "list-table-configs.json");
        assertEquals("ok", listed.path("status").asText(), listed::toString);
        assertTrue(listed.at("/output/configs").toString().contains(id), listed::toString);
    }

    private static JsonNode invoke(SamTemplate template, String logicalId, String event) throws Exception {
        InvokeCommand.Result result = InvokeCommand.invoke(template, logicalId,
                Files.readAllBytes(ROOT.resolve("infra/events").resolve(event)), System.err);
        assertTrue(result.succeeded(), logicalId + ": " + result.failure());
        return Json.parse(new String(result.response(), StandardCharsets.UTF_8));
    }
}
