package dev.tablewright.systemtest.observability;

import dev.tablewright.fakes.concurrent.Poll;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.fakes.identity.DevIssuer;
import dev.tablewright.localstack.local.LocalDeployment;
import dev.tablewright.fakes.model.ModelScript;
import dev.tablewright.json.Json;
import dev.tablewright.logging.Metrics;
import dev.tablewright.logging.StructuredLog;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A turn with two tool calls on the local stack (scripted model, the tools' functions of template.yaml run as in
 * AWS), read as an operator reads it: the log's EMF records (the turn's, one per tool) and one traceId across the
 * turn and the tools' lines; and the GenAI spans a loopback OTLP receiver gets when OTEL_EXPORTER_OTLP_ENDPOINT is
 * set, and does not get when it is not.
 */
class TurnObservabilityTest {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private final ByteArrayOutputStream log = new ByteArrayOutputStream();
    private LocalDeployment stack;
    private OtlpTraceReceiver receiver;

    @AfterEach
    void stop() {
        StructuredLog.redirect(System.out);
        if (stack != null) {
            stack.close();
        }
        if (receiver != null) {
            receiver.close();
        }
    }

    /** The stack with {@code overrides}, the log captured, and one turn of the script: two tool calls, then an answer. */
    private String runTurnWithTwoToolCalls(Map<String, String> overrides) throws Exception {
        Map<String, String> env = new HashMap<>(overrides);
        stack = LocalDeployment.start(LocalDeployment.Settings.forTest(env, ModelScript.builder().build()));
        stack.model().scriptedServer().enqueue(ModelScript.builder()
                .turn(t -> t.toolCall("call_search", "search_database_schema", "{\"query\": \"warehouse\"}").usage(900, 12))
                .turn(t -> t.toolCall("call_cols", "apply_column_change", """
                        {"config": {"name": "Warehouses", "data_source": [{"schema": "core", "source": "warehouses",
                          "select": {"columns": []}}], "visual_settings": {"columns": {}}},
                         "operation": "add", "columns": [{"name": "city", "pg_type": "text"}]}""").usage(1100, 30))
                .turn(t -> t.text("Added the city of each warehouse.").usage(1300, 8))
                .build());
        StructuredLog.redirect(new PrintStream(log, true, StandardCharsets.UTF_8));
        String conversation = "conv-obs-" + System.nanoTime();
        ObjectNode body = Json.object().put("id", conversation).put("trigger", "submit-message");
        ObjectNode message = body.putObject("message").put("id", "u1").put("role", "user");
        message.putArray("parts").addObject().put("type", "text").put("text", "Show the warehouses with their city");
        body.putObject("context").put("page", "tables");
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(stack.chatUrl())).timeout(Duration.ofMinutes(2))
                .header("authorization", "Bearer " + stack.issuer().mint(DevIssuer.DEV_USER))
                .POST(HttpRequest.BodyPublishers.ofString(Json.write(body))).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        assertTrue(r.body().contains("Added the city"), r.body());
        return conversation;
    }

    private List<JsonNode> readLines() {
        try {
            return lines();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private List<JsonNode> lines() throws Exception {
        List<JsonNode> out = new ArrayList<>();
        for (String line : log.toString(StandardCharsets.UTF_8).split("\n")) {
            if (line.startsWith("{")) {
                out.add(Json.parse(line));
            }
        }
        return out;
    }

    @Test
    void theLogCarriesTheTurnsRecordAToolRecordPerToolAndOneTraceIdAndNoSpanIsSent() throws Exception {
        receiver = new OtlpTraceReceiver(); // listening, but the stack is not told about it
        String conversation = runTurnWithTwoToolCalls(Map.of());
        List<JsonNode> lines = lines();

        List<JsonNode> turns = lines.stream().filter(l -> l.path("message").asText().equals("chat turn")).toList();
        assertEquals(1, turns.size(), lines.toString());
        JsonNode turn = turns.getFirst();
        JsonNode directive = turn.at("/_aws/CloudWatchMetrics/0");
        assertEquals(Metrics.DEFAULT_NAMESPACE, directive.path("Namespace").asText());
        assertEquals("[[\"Outcome\"],[]]", directive.path("Dimensions").toString());
        assertEquals("stop", turn.path("Outcome").asText());
        assertEquals(2, turn.path("ToolCalls").asInt(), turn.toString());
        assertEquals(900 + 1100 + 1300, turn.path("InputTokens").asInt(), turn.toString());
        assertEquals(12 + 30 + 8, turn.path("OutputTokens").asInt());
        assertEquals(0, turn.path("ModelRetries").asInt());
        assertTrue(turn.path("TurnDuration").isNumber() && turn.path("TimeToFirstToken").isNumber(), turn.toString());
        Set<String> declared = new LinkedHashSet<>();
        directive.path("Metrics").forEach(m -> declared.add(m.path("Name").asText()));
        assertEquals(Set.of("TurnDuration", "TimeToFirstToken", "InputTokens", "OutputTokens", "ToolCalls", "ModelRetries"), declared);
        assertEquals(DevIssuer.DEV_USER, turn.path("userId").asText(), "ids are properties of the line");
        assertEquals(conversation, turn.path("conversationId").asText());

        List<JsonNode> tools = lines.stream().filter(l -> l.has("_aws") && l.path("message").asText().equals("tool answered")).toList();
        assertEquals(List.of("search_database_schema", "apply_column_change"), tools.stream().map(t -> t.path("Tool").asText()).toList());
        for (JsonNode tool : tools) {
            assertTrue(tool.path("ToolDuration").isNumber(), tool.toString());
            assertEquals(0, tool.path("ToolErrors").asInt(), tool.toString());
            assertEquals("[[\"Tool\"],[]]", tool.at("/_aws/CloudWatchMetrics/0/Dimensions").toString());
        }

        // every line of the turn and of the tool invocations it made: one traceId
        String traceId = turn.path("traceId").asText();
        assertTrue(traceId.matches("[0-9a-f]{32}"), turn.toString());
        List<JsonNode> ofTheTurn = lines.stream().filter(l -> l.path("conversationId").asText().equals(conversation)).toList();
        assertTrue(ofTheTurn.size() >= 3, ofTheTurn.toString());
        for (JsonNode line : ofTheTurn) {
            assertEquals(traceId, line.path("traceId").asText(), line.toString());
        }
        assertTrue(ofTheTurn.containsAll(tools), "the tools' lines are lines of the turn");

        // the gateway logs the chat's request once the function has returned, after the flush that would have sent
        // the spans: by then a span sent would be in the receiver
        Poll.until("the chat request's end", Duration.ofSeconds(10), () -> readLines().stream()
                .anyMatch(l -> l.path("message").asText().equals("request") && l.path("path").asText().equals("/chat")));
        assertEquals(List.of(), receiver.paths, "no endpoint set: nothing is sent");
    }

    @Test
    void withAnEndpointTheTurnsGenAiSpansArriveOnTheTurnsTrace() throws Exception {
        receiver = new OtlpTraceReceiver();
        String conversation = runTurnWithTwoToolCalls(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", receiver.endpoint()));
        // sent once the answer is complete, before the request's handling ends
        Poll.until("six spans", Duration.ofSeconds(10), () -> receiver.spans.size() >= 6);
        List<OtlpTraceReceiver.ReceivedSpan> spans = List.copyOf(receiver.spans);
        assertTrue(receiver.paths.stream().allMatch("/v1/traces"::equals), receiver.paths.toString());
        List<String> names = spans.stream().map(OtlpTraceReceiver.ReceivedSpan::name).sorted().toList();
        String model = stack.model().settings().model();
        assertEquals(List.of("chat " + model, "chat " + model, "chat " + model, "execute_tool apply_column_change",
                "execute_tool search_database_schema", "invoke_agent tablewright"), names);

        OtlpTraceReceiver.ReceivedSpan root = spans.stream().filter(s -> s.name().startsWith("invoke_agent")).findFirst().orElseThrow();
        String traceId = lines().stream().filter(l -> l.path("message").asText().equals("chat turn")).findFirst().orElseThrow()
                .path("traceId").asText();
        for (OtlpTraceReceiver.ReceivedSpan s : spans) {
            assertEquals(traceId, s.traceId(), "the spans and the log lines share the turn's trace id: " + s.name());
            assertEquals(conversation, s.attributes().get("gen_ai.conversation.id"), s.name());
            if (s != root) {
                assertEquals(root.spanId(), s.parentSpanId(), s.name() + " is under the turn's span");
            }
        }
        List<OtlpTraceReceiver.ReceivedSpan> chats = spans.stream().filter(s -> s.name().startsWith("chat ")).toList();
        Map<String, Object> first = chats.stream().filter(s -> Long.valueOf(900).equals(s.attributes().get("gen_ai.usage.input_tokens")))
                .findFirst().orElseThrow(() -> new AssertionError(chats.toString())).attributes();
        assertEquals("chat", first.get("gen_ai.operation.name"));
        assertEquals("openai", first.get("gen_ai.provider.name"));
        assertEquals(model, first.get("gen_ai.request.model"));
        assertEquals(12L, first.get("gen_ai.usage.output_tokens"));
        assertEquals(List.of("tool_calls"), first.get("gen_ai.response.finish_reasons"));
        assertFalse(first.containsKey("gen_ai.input.messages"), "no contents unless OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT says so");

        Map<String, Object> tool = spans.stream().filter(s -> s.name().equals("execute_tool apply_column_change")).findFirst()
                .orElseThrow().attributes();
        assertEquals("execute_tool", tool.get("gen_ai.operation.name"));
        assertEquals("apply_column_change", tool.get("gen_ai.tool.name"));
        assertEquals("call_cols", tool.get("gen_ai.tool.call.id"));
        assertFalse(tool.containsKey("gen_ai.tool.call.arguments"));
    }
}
