package dev.tablewright.systemtest.observability;

import dev.tablewright.localstack.local.ApiGatewayEvents;
import dev.tablewright.fakes.concurrent.Poll;
import dev.tablewright.fakes.identity.DevIssuer;
import dev.tablewright.fakes.model.ModelScript;
import dev.tablewright.fakes.model.ScriptedModelServer;
import dev.tablewright.fakes.runtime.FunctionProcess;
import dev.tablewright.fakes.runtime.FunctionSpec;
import dev.tablewright.fakes.runtime.InvocationResult;
import dev.tablewright.fakes.runtime.RuntimeApiEmulator;
import dev.tablewright.json.Json;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The chat function's jar, run as Lambda runs it, with the JVM's class loading logged ({@code -Xlog:class+load}):
 * without OTEL_EXPORTER_OTLP_ENDPOINT a turn loads no OpenTelemetry class at all; with it, the same turn's spans
 * reach the receiver before the invocation ends (before the runtime asks for the next one).
 */
class ChatFunctionOpenTelemetryLoadingTest {

    record Run(long classes, long openTelemetryClasses, List<OtlpTraceReceiver.ReceivedSpan> spans) {
    }

    static FunctionSpec chatSpec() throws Exception {
        FunctionSpec spec = FunctionSpec.fromTemplate("ChatTurnFunction");
        if (!spec.artifactExists() && "true".equals(System.getenv("CI"))) {
            throw new AssertionError("the chat function's jar is not built: " + spec.artifact());
        }
        assumeTrue(spec.artifactExists(), "the chat function's jar is not built (mvn package, or mvn verify from the root): " + spec.artifact());
        return spec;
    }

    private static Run turn(Map<String, String> extra) throws Exception {
        FunctionSpec spec = chatSpec();
        Path log = Files.createTempFile("class-load", ".log");
        try (ScriptedModelServer model = ScriptedModelServer.start(); DevIssuer.Standalone identity = DevIssuer.startStandalone();
             OtlpTraceReceiver receiver = new OtlpTraceReceiver(); RuntimeApiEmulator emulator = RuntimeApiEmulator.start("ChatTurnFunction")) {
            Map<String, String> env = new HashMap<>(Map.of("OPENAI_BASE_URL", model.baseUrl(), "OPENAI_API_KEY", "sk-local-not-a-secret",
                    "OPENAI_MODEL", "scripted-model", "AUTH_ISSUER", identity.issuer().issuer(),
                    "AUTH_AUDIENCE", identity.issuer().audience(), "AUTH_JWKS_URL", identity.issuer().jwksUrl()));
            env.put("JAVA_TOOL_OPTIONS", (spec.environment().getOrDefault("JAVA_TOOL_OPTIONS", "") + " -Xlog:class+load=info:file=" + log).strip());
            extra.forEach((k, v) -> env.put(k, v.replace("{receiver}", receiver.endpoint())));
            model.enqueue(ModelScript.builder().turn(t -> t.text("Hello", " there.").usage(900, 8)).build());
            try (FunctionProcess function = FunctionProcess.start(spec, emulator, env)) {
                InvocationResult result = emulator.invoke(event(identity.issuer().mint(DevIssuer.DEV_USER)).getBytes(StandardCharsets.UTF_8),
                        Duration.ofSeconds(60)).await(Duration.ofSeconds(60));
                assertTrue(result.succeeded(), () -> result.errorType() + " " + result.errorBody() + "\n" + function.output());
                // the invocation ends when the runtime asks for the next one: what the receiver holds then was sent
                // before it (after the answer was complete, before Lambda would freeze the process)
                Poll.until("the runtime asking for the next invocation\n" + function.output(), Duration.ofSeconds(10),
                        () -> emulator.polls() >= 2);
                List<OtlpTraceReceiver.ReceivedSpan> spans = List.copyOf(receiver.spans);
                try (var lines = Files.lines(log)) {
                    List<String> loaded = lines.filter(l -> l.contains("source:")).toList();
                    return new Run(loaded.size(), loaded.stream().filter(l -> l.contains(" io.opentelemetry.")).count(), spans);
                }
            }
        } finally {
            Files.deleteIfExists(log);
        }
    }

    static String event(String token) {
        String body = "{\"id\":\"otel-load\",\"trigger\":\"submit-message\",\"messages\":[{\"id\":\"m1\",\"role\":\"user\","
                + "\"parts\":[{\"type\":\"text\",\"text\":\"say hello\"}]}]}";
        return Json.write(ApiGatewayEvents.functionUrl("POST", "/", Map.of("content-type", "application/json",
                "authorization", "Bearer " + token), body));
    }

    @Test
    void withoutAnEndpointNoOpenTelemetryClassIsLoadedAndWithOneTheSpansArrive() throws Exception {
        Run plain = turn(Map.of());
        assertTrue(plain.classes() > 1000, "the class-load log was written: " + plain.classes());
        assertEquals(0, plain.openTelemetryClasses(), "no OpenTelemetry class without OTEL_EXPORTER_OTLP_ENDPOINT");
        assertEquals(List.of(), plain.spans());

        Run traced = turn(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "{receiver}"));
        assertTrue(traced.openTelemetryClasses() > 0, "the exporter is loaded with an endpoint");
        assertEquals(List.of("chat scripted-model", "invoke_agent tablewright"),
                traced.spans().stream().map(OtlpTraceReceiver.ReceivedSpan::name).sorted().toList());
    }
}
