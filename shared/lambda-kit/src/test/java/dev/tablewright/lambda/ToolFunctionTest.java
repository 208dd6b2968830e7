package dev.tablewright.lambda;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.failure.ErrorCode;
import dev.tablewright.json.Json;
import dev.tablewright.logging.StructuredLog;
import dev.tablewright.toolcontract.ExecutionGate;
import dev.tablewright.toolcontract.Tool;
import dev.tablewright.toolcontract.ToolDefinition;
import dev.tablewright.toolcontract.ToolInvocation;
import dev.tablewright.toolcontract.ToolOutcome;
import dev.tablewright.toolcontract.UserInputRequirement;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ToolFunctionTest {

    static final ToolDefinition ECHO = new ToolDefinition("echo_arguments", "Answers its arguments and session values.",
            (ObjectNode) Json.MAPPER.valueToTree(java.util.Map.of("type", "object", "properties",
                    java.util.Map.of("config", java.util.Map.of("type", "object")))), null, Set.of("tables"), null);

    /** Answers what it received, so a test sees exactly what the decoding produced. */
    static final class EchoTool implements Tool {
        @Override
        public ToolDefinition definition() {
            return ECHO;
        }

        @Override
        public ToolOutcome execute(ToolInvocation invocation) {
            ObjectNode out = Json.object();
            out.set("arguments", invocation.arguments());
            out.set("sessionValues", Json.tree(invocation.sessionValues()));
            out.put("conversationId", invocation.conversationId());
            out.put("toolCallId", invocation.toolCallId());
            out.put("userId", invocation.userId());
            return ToolOutcome.ok(out);
        }
    }

    static final class EchoFunction extends ToolFunction {
        EchoFunction() {
            super(new EchoTool());
        }
    }

    static final class FailingFunction extends ToolFunction {
        FailingFunction(RuntimeException failure) {
            super(new Tool() {
                @Override
                public ToolDefinition definition() {
                    return ECHO;
                }

                @Override
                public ToolOutcome execute(ToolInvocation invocation) {
                    throw failure;
                }
            });
        }
    }

    private final ByteArrayOutputStream logs = new ByteArrayOutputStream();

    @BeforeEach
    void captureLogs() {
        StructuredLog.redirect(new PrintStream(logs, true, StandardCharsets.UTF_8));
    }

    @AfterEach
    void restoreLogs() {
        StructuredLog.redirect(System.out);
    }

    static JsonNode call(ToolFunction function, String body) throws Exception {
        return call(function, new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8)));
    }

    static JsonNode call(ToolFunction function, InputStream body) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        function.handleRequest(body, out, null);
        String text = out.toString(StandardCharsets.UTF_8);
        assertFalse(text.contains("\tat ") || text.contains("Exception") || text.contains("dev.tablewright."),
                "no stack trace or class name in a response: " + text);
        return Json.parse(text);
    }

    @Test
    void envelopeIsDecodedAndAnsweredInTheEnvelope() throws Exception {
        JsonNode answer = call(new EchoFunction(), """
                {"tool": "echo_arguments", "toolCallId": "call_1", "conversationId": "c_1", "userId": "u_1",
                 "arguments": {"operation": "add"}, "sessionValues": {"database": "staging", "limit": 5}}""");
        assertEquals("ok", answer.path("status").asText());
        JsonNode output = answer.path("output");
        assertEquals("add", output.path("arguments").path("operation").asText());
        assertEquals("staging", output.path("sessionValues").path("database").asText());
        assertEquals("5", output.path("sessionValues").path("limit").asText());
        assertEquals("c_1", output.path("conversationId").asText());
        assertEquals("call_1", output.path("toolCallId").asText());
        assertEquals("u_1", output.path("userId").asText());
    }

    @Test
    void bareArgumentsAreAccepted() throws Exception {
        JsonNode answer = call(new EchoFunction(), "{\"operation\": \"remove\", \"columns\": [{\"name\": \"id\"}]}");
        assertEquals("ok", answer.path("status").asText());
        assertEquals("remove", answer.at("/output/arguments/operation").asText());
        assertEquals("id", answer.at("/output/arguments/columns/0/name").asText());
        assertTrue(answer.at("/output/conversationId").isMissingNode() || answer.at("/output/conversationId").isNull());
    }

    @Test
    void configAsJsonTextBecomesAnObject() throws Exception {
        String config = Json.write(java.util.Map.of("name", "Orders", "data_source", java.util.List.of()));
        ObjectNode envelope = Json.object().put("tool", "echo_arguments");
        envelope.putObject("arguments").put("operation", "add").put("config", config);
        JsonNode answer = call(new EchoFunction(), Json.write(envelope));
        assertTrue(answer.at("/output/arguments/config").isObject(), answer.toString());
        assertEquals("Orders", answer.at("/output/arguments/config/name").asText());

        JsonNode bare = call(new EchoFunction(), Json.write(Json.object().put("config", config)));
        assertEquals("Orders", bare.at("/output/arguments/config/name").asText());
    }

    @Test
    void argumentsAsJsonTextAreAccepted() throws Exception {
        JsonNode answer = call(new EchoFunction(),
                "{\"tool\": \"echo_arguments\", \"arguments\": \"{\\\"operation\\\": \\\"set\\\"}\"}");
        assertEquals("set", answer.at("/output/arguments/operation").asText());
    }

    @Test
    void configThatIsNotJsonIsAFieldError() throws Exception {
        JsonNode answer = call(new EchoFunction(), "{\"config\": \"{not json\", \"operation\": \"add\"}");
        assertEquals("error", answer.path("status").asText());
        assertEquals("invalid_arguments", answer.at("/error/code").asText());
        assertEquals("config", answer.at("/error/errors/0/field").asText());
        assertTrue(answer.at("/error/message").asText().startsWith("config is a string that is not valid JSON"));

        JsonNode array = call(new EchoFunction(), "{\"config\": \"[1, 2]\"}");
        assertEquals("config", array.at("/error/errors/0/field").asText());
        assertTrue(array.at("/error/message").asText().contains("an array"), array.toString());
    }

    @Test
    void malformedInputIsAPlainError() throws Exception {
        for (String body : new String[]{"{\"config\": ", "not json at all", "", "   ", "[1,2,3]", "42", "null",
                "{\"tool\": \"echo_arguments\", \"arguments\": [1]}",
                "{\"tool\": \"echo_arguments\", \"arguments\": {}, \"sessionValues\": \"staging\"}",
                "{\"tool\": 7, \"arguments\": {}}"}) {
            JsonNode answer = call(new EchoFunction(), body);
            assertEquals("error", answer.path("status").asText(), body);
            assertEquals("invalid_arguments", answer.at("/error/code").asText(), body);
            assertFalse(answer.at("/error/message").asText().isBlank(), body);
        }
        JsonNode truncated = call(new EchoFunction(), "{\"operation\": \"add\",\n \"config\": {");
        assertTrue(truncated.at("/error/message").asText().contains("line 2"), truncated.toString());
    }

    @Test
    void envelopeForAnotherToolIsRefused() throws Exception {
        JsonNode answer = call(new EchoFunction(), "{\"tool\": \"apply_sort_change\", \"arguments\": {}}");
        assertEquals("unknown_tool", answer.at("/error/code").asText());
        assertTrue(answer.at("/error/message").asText().contains("echo_arguments"));
    }

    @Test
    void invocationLargerThanSixMegabytesIsRefusedUnread() throws Exception {
        long[] served = {0};
        long size = 50L * 1024 * 1024;
        InputStream huge = new InputStream() {
            @Override
            public int read() {
                return served[0]++ < size ? 'x' : -1;
            }

            @Override
            public int read(byte[] b, int off, int len) {
                if (len == 0) {
                    return 0;
                }
                int n = (int) Math.min(len, size - served[0]);
                if (n <= 0) {
                    return -1;
                }
                java.util.Arrays.fill(b, off, off + n, (byte) ' ');
                served[0] += n;
                return n;
            }
        };
        JsonNode answer = call(new EchoFunction(), huge);
        assertEquals("invalid_arguments", answer.at("/error/code").asText());
        assertTrue(answer.at("/error/message").asText().contains("6 MB"), answer::toString);
        assertTrue(served[0] <= ToolFunction.MAX_INVOCATION_BYTES + 1L + 16384, () -> "stopped reading at the limit: " + served[0]);
    }

    @Test
    void fiveMegabyteStringIsDecodedWithinBounds() throws Exception {
        String big = "x".repeat(5 * 1024 * 1024);
        JsonNode answer = call(new EchoFunction(), Json.write(Json.object().put("label", big)));
        assertEquals("ok", answer.path("status").asText());
        assertEquals(big.length(), answer.at("/output/arguments/label").asText().length());
    }

    @Test
    void aFailingToolAnswersAPlainInternalErrorAndLogsTheDetail() throws Exception {
        JsonNode answer = call(new FailingFunction(new IllegalStateException("secret detail from deep inside")),
                "{\"tool\": \"echo_arguments\", \"conversationId\": \"c_9\", \"arguments\": {}}");
        assertEquals("error", answer.path("status").asText());
        assertEquals("internal", answer.at("/error/code").asText());
        assertFalse(answer.toString().contains("secret detail"));
        String log = logs.toString(StandardCharsets.UTF_8);
        JsonNode line = Json.parse(log.lines().filter(l -> l.contains("tool failed")).findFirst().orElseThrow());
        assertEquals("echo_arguments", line.path("toolName").asText());
        assertEquals("c_9", line.path("conversationId").asText());
        assertEquals("java.lang.IllegalStateException", line.path("errorType").asText());
    }

    @Test
    void aDomainFailureThatReachesTheBaseIsAnsweredAsTheToolWouldHave() throws Exception {
        JsonNode conflict = call(new FailingFunction(new dev.tablewright.configstore.VersionConflictException("cfg_1", 2, 3L)),
                "{\"tool\": \"echo_arguments\", \"arguments\": {}}");
        assertEquals("version_conflict", conflict.at("/error/code").asText(), conflict.toString());
        JsonNode invalid = call(new FailingFunction(new dev.tablewright.configstore.InvalidCursorException()),
                "{\"tool\": \"echo_arguments\", \"arguments\": {}}");
        assertEquals("invalid_arguments", invalid.at("/error/code").asText(), invalid.toString());
        assertEquals("cursor", invalid.at("/error/errors/0/field").asText(), invalid.toString());
        assertFalse(logs.toString(StandardCharsets.UTF_8).contains("tool failed"), "a refusal is not logged as a failure");
    }

    @Test
    void theGateAnswersBeforeTheToolRuns() throws Exception {
        UserInputRequirement needed = new UserInputRequirement("Which database?", java.util.List.of(), true, null);
        ExecutionGate gate = (tool, invocation) -> invocation.sessionValues().containsKey("database")
                ? Optional.empty() : Optional.of(ToolOutcome.needsInput(needed));
        ToolFunction gated = new ToolFunction(new EchoTool(), gate) {
        };
        JsonNode asks = call(gated, "{\"tool\": \"echo_arguments\", \"arguments\": {}}");
        assertEquals("needs_input", asks.path("status").asText());
        assertEquals("Which database?", asks.at("/request/reason").asText());
        JsonNode runs = call(gated, "{\"tool\": \"echo_arguments\", \"arguments\": {}, \"sessionValues\": {\"database\": \"prod\"}}");
        assertEquals("ok", runs.path("status").asText());
    }

    @Test
    void theEncodingReadsBackAsTheSameOutcomeAndLeavesOutWhatIsAbsent() throws Exception {
        UserInputRequirement needed = new UserInputRequirement("Which database?", java.util.List.of(
                new dev.tablewright.toolcontract.InputField("database", "Database", null, dev.tablewright.toolcontract.FieldType.SELECT, true,
                        null, null, null, null, java.util.List.of("production", "staging"), null)), true, null);
        for (ToolOutcome outcome : java.util.List.of(
                ToolOutcome.ok(Json.parse("{\"valid\": true, \"applied\": [\"x\"]}")),
                ToolOutcome.error(ErrorCode.INTERNAL, "failed"),
                ToolOutcome.error(new dev.tablewright.toolcontract.ToolError(ErrorCode.INVALID_ARGUMENTS, "config is bad",
                        java.util.List.of(new dev.tablewright.validation.ValidationError("config", "config is bad"),
                                new dev.tablewright.validation.ValidationError(null, "no field")))),
                ToolOutcome.needsInput(needed))) {
            assertEquals(outcome, dev.tablewright.toolcontract.ToolOutcomeJson.read(Json.MAPPER.readTree(ToolFunction.encode(outcome))),
                    outcome.toString());
        }
        assertEquals(Json.parse("""
                {"status": "needs_input", "request": {"reason": "Which database?", "fields": [{"name": "database",
                 "label": "Database", "type": "select", "required": true, "options": ["production", "staging"]}],
                 "saveForSession": true, "scope": "conversation"}}"""), Json.MAPPER.readTree(ToolFunction.encode(ToolOutcome.needsInput(needed))));
        assertEquals(Json.parse("{\"status\": \"error\", \"error\": {\"code\": \"internal\", \"message\": \"failed\"}}"),
                Json.MAPPER.readTree(ToolFunction.encode(ToolOutcome.error(ErrorCode.INTERNAL, "failed"))), "no empty errors list");
    }

    @Test
    void logsCarryTheRequestContextAndNoArgumentValues() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new EchoFunction().handleRequest(new ByteArrayInputStream(
                "{\"tool\":\"echo_arguments\",\"conversationId\":\"c_2\",\"arguments\":{\"password\":\"hunter2\"}}"
                        .getBytes(StandardCharsets.UTF_8)), out, null);
        String log = logs.toString(StandardCharsets.UTF_8);
        assertTrue(log.contains("\"conversationId\":\"c_2\""), log);
        assertFalse(log.contains("hunter2"), log);
    }

    @Test
    void aToolRunInProcessLeavesTheCallersLogContextAsItWas() throws Exception {
        // the local stack's chat turn calls tool functions on its own thread: its ids must survive the call
        dev.tablewright.logging.StructuredLog.put("conversationId", "conv_of_the_turn");
        var out = new java.io.ByteArrayOutputStream();
        dev.tablewright.logging.StructuredLog.redirect(new java.io.PrintStream(out, true, java.nio.charset.StandardCharsets.UTF_8));
        try {
            call(new EchoFunction(), "{\"tool\":\"echo_arguments\",\"conversationId\":\"conv_in_envelope\",\"arguments\":{}}");
            dev.tablewright.logging.StructuredLog.of(ToolFunctionTest.class).warn("after the tool");
        } finally {
            dev.tablewright.logging.StructuredLog.redirect(System.out);
            dev.tablewright.logging.StructuredLog.clear();
        }
        String[] lines = out.toString(java.nio.charset.StandardCharsets.UTF_8).trim().split("\n");
        JsonNode last = dev.tablewright.json.Json.MAPPER.readTree(lines[lines.length - 1]);
        assertEquals("after the tool", last.path("message").asText());
        assertEquals("conv_of_the_turn", last.path("conversationId").asText(), last.toString());
    }

    private java.util.List<JsonNode> logLines() throws Exception {
        java.util.List<JsonNode> out = new java.util.ArrayList<>();
        for (String line : logs.toString(StandardCharsets.UTF_8).split("\n")) {
            if (!line.isBlank()) {
                out.add(Json.parse(line));
            }
        }
        return out;
    }

    @Test
    void eachAnswerIsAnEmfRecordOfToolDurationAndToolErrorsByTool() throws Exception {
        call(new EchoFunction(), "{\"tool\": \"echo_arguments\", \"conversationId\": \"c_3\", \"arguments\": {}}");
        call(new FailingFunction(new IllegalStateException("boom")), "{\"tool\": \"echo_arguments\", \"arguments\": {}}");
        call(new EchoFunction(), "{\"tool\": \"echo_arguments\", \"arguments\": 42}"); // refused: the tool never ran
        java.util.List<JsonNode> records = logLines().stream().filter(l -> l.has("_aws")).toList();
        assertEquals(2, records.size(), logs.toString(StandardCharsets.UTF_8));
        for (JsonNode r : records) {
            assertEquals("tool answered", r.path("message").asText());
            assertEquals("echo_arguments", r.path("Tool").asText());
            assertTrue(r.path("ToolDuration").isNumber(), r.toString());
            JsonNode directive = r.at("/_aws/CloudWatchMetrics/0");
            assertEquals("Tablewright", directive.path("Namespace").asText());
            assertEquals("[[\"Tool\"],[]]", directive.path("Dimensions").toString());
        }
        assertEquals(0, records.get(0).path("ToolErrors").asInt());
        assertEquals("c_3", records.get(0).path("conversationId").asText(), "ids stay properties of the line");
        assertEquals(1, records.get(1).path("ToolErrors").asInt());
        assertEquals("internal", records.get(1).path("errorCode").asText());
    }

    @Test
    void theTraceparentOfTheEnvelopeGivesEveryLineOfTheInvocationTheTurnsTraceId() throws Exception {
        String traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
        call(new FailingFunction(new IllegalStateException("boom")), "{\"tool\": \"echo_arguments\", \"arguments\": {},"
                + " \"traceparent\": \"00-" + traceId + "-00f067aa0ba902b7-01\"}");
        java.util.List<JsonNode> lines = logLines();
        assertTrue(lines.size() >= 2, lines.toString()); // "tool failed" and "tool answered"
        for (JsonNode line : lines) {
            assertEquals(traceId, line.path("traceId").asText(), line.toString());
        }

        logs.reset();
        call(new EchoFunction(), "{\"tool\": \"echo_arguments\", \"arguments\": {}, \"traceparent\": \"not a trace\"}");
        JsonNode own = logLines().getLast();
        assertTrue(own.path("traceId").asText().matches("[0-9a-f]{32}"), "a malformed one starts a trace of its own: " + own);
        assertFalse(own.path("traceId").asText().equals(traceId));
    }
}
