package dev.tablewright.systemtest.runtime;

import dev.tablewright.fakes.runtime.FunctionProcess;
import dev.tablewright.fakes.runtime.FunctionSpec;
import dev.tablewright.fakes.runtime.Invocation;
import dev.tablewright.fakes.runtime.InvocationResult;
import dev.tablewright.fakes.runtime.RuntimeApiEmulator;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.fakes.template.SamTemplate;
import dev.tablewright.json.Json;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The tools function as Lambda runs it: its shaded jar (functions/tools, what sam build deploys) unpacked as the
 * task root, a separate JVM running the Runtime Interface Client from Maven Central, events through the Runtime
 * API emulator. The jar exists after the package phase (`mvn verify`); under `mvn test` alone this is skipped.
 */
class ToolFunctionProcessTest {

    @AutoClose
    private static RuntimeApiEmulator emulator;
    @AutoClose
    private static FunctionProcess function;

    @BeforeAll
    static void start() throws Exception {
        FunctionSpec spec = FunctionSpec.fromTemplate("ApplyColumnChangeFunction");
        assumeTrue(spec.artifactExists(), "the tools jar is built in the package phase (mvn verify); not there: " + spec.artifact());
        emulator = RuntimeApiEmulator.start(spec.logicalId());
        function = FunctionProcess.start(spec, emulator, Map.of());
    }

    @Test
    void theShadedJarAnswersTheSampleEventThroughTheRuntimeInterfaceClient() throws Exception {
        Path event = SamTemplate.locate().getParent().resolve("infra/events/apply-column-change.json");
        InvocationResult result = await(emulator.invoke(Files.readString(event)));
        assertTrue(result.succeeded(), result::errorBody);
        JsonNode answer = Json.parse(result.bodyText());
        assertEquals("ok", answer.path("status").asText(), answer::toString);
        assertTrue(answer.at("/output/valid").asBoolean(), answer::toString);
        assertEquals("datetime", answer.at("/output/config/visual_settings/columns/approved_at/type").asText());

        // Bad input is an answer in the envelope, not a Lambda invocation error; the process keeps serving.
        InvocationResult malformed = await(emulator.invoke("{\"tool\": \"apply_column_change\", \"arguments\": "));
        assertTrue(malformed.succeeded(), malformed::errorBody);
        JsonNode error = Json.parse(malformed.bodyText());
        assertEquals("error", error.path("status").asText());
        assertEquals("invalid_arguments", error.at("/error/code").asText());
        assertFalse(malformed.bodyText().contains("Exception"), malformed.bodyText());

        InvocationResult wrongTool = await(emulator.invoke("{\"tool\": \"apply_sort_change\", \"arguments\": {}}"));
        assertEquals("unknown_tool", Json.parse(wrongTool.bodyText()).at("/error/code").asText());
        assertTrue(function.isAlive());
    }

    private static InvocationResult await(Invocation invocation) throws Exception {
        return function.await(invocation, Duration.ofSeconds(60));
    }
}
