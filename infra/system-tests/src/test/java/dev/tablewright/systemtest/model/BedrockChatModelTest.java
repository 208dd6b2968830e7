package dev.tablewright.systemtest.model;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.agent.model.FinishReason;
import dev.tablewright.agent.model.ModelFailure;
import dev.tablewright.agent.model.ModelMessage;
import dev.tablewright.agent.model.ModelRequest;
import dev.tablewright.agent.model.ModelStep;
import dev.tablewright.agent.model.ModelStreamListener;
import dev.tablewright.agent.model.ModelTool;
import dev.tablewright.agent.model.ToolCallRequest;
import dev.tablewright.bedrock.BedrockChatModel;
import dev.tablewright.bedrock.BedrockSettings;
import dev.tablewright.fakes.model.BedrockModelServer;
import dev.tablewright.fakes.model.ModelScript;
import dev.tablewright.fakes.model.RecordedRequest;
import dev.tablewright.json.Json;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link BedrockChatModel} on the wire against the Bedrock stand-in: every request signed (the stand-in recomputes
 * the signature) and valid as Bedrock checks it, text and tool input streamed as they arrive, stop reasons and usage
 * mapped, Bedrock's errors turned into the failures the turn retries or reports.
 */
class BedrockChatModelTest {

    static final String ACCESS_KEY = "AKIDSTANDIN0000000000";
    static final String SECRET_KEY = "stand-in-secret-key-not-a-real-one";
    static final String MODEL_ID = "us.anthropic.claude-sonnet-4-20250514-v1:0";

    private BedrockModelServer bedrock;
    private BedrockChatModel model;

    @BeforeEach
    void start() throws Exception {
        bedrock = BedrockModelServer.start().verifySignatures(ACCESS_KEY, SECRET_KEY);
        model = model(bedrock, Duration.ofSeconds(10));
    }

    @AfterEach
    void stop() {
        bedrock.close();
    }

    static BedrockChatModel model(BedrockModelServer server, Duration idle) {
        return new BedrockChatModel(new BedrockSettings(URI.create(server.endpoint()), "eu-central-1", MODEL_ID, idle),
                StaticCredentialsProvider.create(AwsBasicCredentials.create(ACCESS_KEY, SECRET_KEY)));
    }

    static ModelRequest request(List<ModelMessage> messages) {
        return new ModelRequest(messages, List.of(tool("apply_column_change"), tool("preview_table_config")), 2048,
                Instant.now().plusSeconds(30), null);
    }

    static ModelTool tool(String name) {
        return new ModelTool(name, "The " + name + " tool", Json.objectLiteral(
                "{\"type\":\"object\",\"properties\":{\"column\":{\"type\":\"string\"}},\"required\":[]}"));
    }

    /** What reached the listener, in order: "text:…", "start:id:name", "args:id:…". */
    static class Recording implements ModelStreamListener {
        final List<String> events = new ArrayList<>();

        @Override
        public void textDelta(String delta) {
            events.add("text:" + delta);
        }

        @Override
        public void toolCallStarted(String toolCallId, String toolName) {
            events.add("start:" + toolCallId + ":" + toolName);
        }

        @Override
        public void toolCallArgumentsDelta(String toolCallId, String delta) {
            events.add("args:" + toolCallId + ":" + delta);
        }
    }

    @Test
    void aTextTurnStreamsItsDeltasAndReportsStopAndUsage() throws Exception {
        bedrock.enqueue(ModelScript.builder().turn(t -> t.text("Hel", "lo ").delay(5).text("world").usage(812, 9)).build());
        Recording listener = new Recording();

        ModelStep step = model.stream(request(List.of(new ModelMessage.System("You edit table configs."),
                new ModelMessage.User("add the warehouse name"))), listener);

        assertEquals(List.of("text:Hel", "text:lo ", "text:world"), listener.events);
        assertEquals("Hello world", step.text());
        assertEquals(FinishReason.STOP, step.finishReason(), "end_turn is the turn's stop");
        assertEquals(812, step.usage().promptTokens());
        assertEquals(9, step.usage().completionTokens());

        RecordedRequest sent = bedrock.requests().getFirst();
        assertEquals(List.of(), bedrock.violations());
        assertEquals(MODEL_ID, BedrockModelServer.modelId(sent), "the model id (an inference profile, with its colon) travels in the path");
        assertTrue(sent.headers().get("Authorization").matches(
                "AWS4-HMAC-SHA256 Credential=" + ACCESS_KEY + "/\\d{8}/eu-central-1/bedrock/aws4_request, .*"), sent.headers().get("Authorization"));
        assertEquals("You edit table configs.", sent.body().path("system").path(0).path("text").asText());
        assertEquals(2048, sent.body().path("inferenceConfig").path("maxTokens").asInt());
        JsonNode spec = sent.body().path("toolConfig").path("tools").path(0).path("toolSpec");
        assertEquals("apply_column_change", spec.path("name").asText());
        assertEquals("object", spec.path("inputSchema").path("json").path("type").asText());
    }

    @Test
    void aTwoToolTurnStreamsEachCallsInputAsItForms() throws Exception {
        bedrock.enqueue(ModelScript.builder().turn(t -> t.text("Adding the column, then a preview.")
                .toolCall("tooluse_col", "apply_column_change", "{\"column\":", "\"name\"}")
                .toolCall("tooluse_prev", "preview_table_config", "{}")
                .usage(900, 40)).build());
        Recording listener = new Recording();

        ModelStep step = model.stream(request(List.of(new ModelMessage.User("add the warehouse name and preview it"))), listener);

        assertEquals(List.of("text:Adding the column, then a preview.", "start:tooluse_col:apply_column_change",
                "args:tooluse_col:{\"column\":", "args:tooluse_col:\"name\"}", "start:tooluse_prev:preview_table_config",
                "args:tooluse_prev:{}"), listener.events);
        assertEquals(FinishReason.TOOL_CALLS, step.finishReason(), "tool_use is the turn's tool_calls");
        assertEquals(List.of(new ToolCallRequest("tooluse_col", "apply_column_change", "{\"column\":\"name\"}"),
                new ToolCallRequest("tooluse_prev", "preview_table_config", "{}")), step.toolCalls());
        assertEquals(940, step.usage().total());
    }

    @Test
    void theSnapStartPrimingStreamsOneCallThroughTheWholeBedrockPath() throws Exception {
        ModelStep primed = dev.tablewright.bedrock.BedrockPriming.run(MODEL_ID, "eu-central-1");
        assertEquals("primed", primed.text());
        assertEquals(FinishReason.TOOL_CALLS, primed.finishReason());
        assertEquals(List.of(new ToolCallRequest("tooluse_p", "priming", "{}")), primed.toolCalls());
        assertEquals(2, primed.usage().total());
    }

    @Test
    void maxTokensIsTheTurnsLength() throws Exception {
        bedrock.enqueue(ModelScript.builder().turn(t -> t.text("a long answ").finishReason("length")).build());
        assertEquals(FinishReason.LENGTH, model.stream(request(List.of(new ModelMessage.User("hi"))), new Recording()).finishReason());
    }

    /**
     * A stored conversation as the turn rebuilds it, with what trips Bedrock: it starts with the assistant (the memory
     * budget dropped the first user message), two user messages in a row, two tool calls answered by separate
     * results, a failed call, a call whose result was lost, a result whose call was trimmed away, an id Bedrock
     * would not take, a blank text. Each request the stand-in receives along the way is one Bedrock accepts.
     */
    @Test
    void aMultiTurnHistoryIsSentAsBedrockAcceptsIt() throws Exception {
        List<ModelMessage> history = new ArrayList<>(List.of(
                new ModelMessage.System("You edit table configs."),
                new ModelMessage.Assistant("Earlier I added the item column.", List.of()),
                new ModelMessage.ToolResult("call_trimmed", "{\"valid\":true}"),
                new ModelMessage.User("now the warehouse name"),
                new ModelMessage.User("and sort by quantity"),
                new ModelMessage.Assistant("", List.of(new ToolCallRequest("call_1", "apply_column_change", "{\"column\":\"name\"}"),
                        new ToolCallRequest("call.2/ui", "apply_column_change", "{not json"))),
                new ModelMessage.ToolResult("call_1", "{\"valid\":true,\"summary\":\"name added\"}"),
                new ModelMessage.ToolResult("call.2/ui", "{\"error\":{\"code\":\"invalid_arguments\",\"message\":\"not JSON\"}}"),
                new ModelMessage.Assistant("  ", List.of(new ToolCallRequest("call_3", "preview_table_config", "{}"))),
                new ModelMessage.User("continue")));
        bedrock.enqueue(ModelScript.builder()
                .turn(t -> t.toolCall("tooluse_a", "preview_table_config", "{}"))
                .say("Here is the preview.")
                .build());

        ModelStep first = model.stream(request(history), new Recording());
        history.add(new ModelMessage.Assistant(first.text(), first.toolCalls()));
        history.add(new ModelMessage.ToolResult("tooluse_a", "plain text answer"));
        model.stream(request(history), new Recording());

        assertEquals(List.of(), bedrock.violations());
        JsonNode messages = bedrock.requests().get(1).body().path("messages");
        assertEquals("user", messages.path(0).path("role").asText(), "a history starting with the assistant is repaired");
        JsonNode failed = findResult(messages, "call_2_ui");
        assertEquals("error", failed.path("status").asText(), "a failed call's result says so");
        assertEquals("invalid_arguments", failed.path("content").path(0).path("json").path("error").path("code").asText(),
                "a JSON answer goes as json");
        assertFalse(findResult(messages, "call_1").has("status"));
        assertEquals("error", findResult(messages, "call_3").path("status").asText(), "a lost result is answered as an error");
        assertEquals("plain text answer", findResult(messages, "tooluse_a").path("content").path(0).path("text").asText());
    }

    static JsonNode findResult(JsonNode messages, String toolUseId) {
        for (JsonNode message : messages) {
            for (JsonNode block : message.path("content")) {
                if (block.path("toolResult").path("toolUseId").asText().equals(toolUseId)) {
                    return block.get("toolResult");
                }
            }
        }
        throw new AssertionError("no toolResult for " + toolUseId + " in " + messages);
    }

    @Test
    void throttlingAndUnavailabilityAreRetryable() {
        bedrock.enqueue(ModelScript.builder().error(429, "Too many tokens, please wait before trying again.")
                .error(503, "Bedrock is unable to process your request.").build());
        ModelFailure throttled = assertThrows(ModelFailure.class, () -> model.stream(request(List.of(new ModelMessage.User("hi"))), new Recording()));
        assertEquals(ModelFailure.Kind.RATE_LIMITED, throttled.kind());
        assertTrue(throttled.retryable());
        ModelFailure unavailable = assertThrows(ModelFailure.class, () -> model.stream(request(List.of(new ModelMessage.User("hi"))), new Recording()));
        assertEquals(ModelFailure.Kind.UNAVAILABLE, unavailable.kind());
        assertTrue(unavailable.retryable());
    }

    @Test
    void aValidationExceptionNamesTheModel() {
        bedrock.enqueue(ModelScript.builder().error(400, "This model doesn't support tool use.").build());
        ModelFailure rejected = assertThrows(ModelFailure.class, () -> model.stream(request(List.of(new ModelMessage.User("hi"))), new Recording()));
        assertEquals(ModelFailure.Kind.REJECTED, rejected.kind());
        assertFalse(rejected.retryable());
        assertTrue(rejected.getMessage().contains(MODEL_ID) && rejected.getMessage().contains("doesn't support tool use"), rejected.getMessage());
    }

    @Test
    void accessDeniedSaysWhichPermissionOrModelAccessIsMissing() {
        bedrock.enqueue(ModelScript.builder()
                .error(403, "User: arn:aws:sts::123456789012:assumed-role/chat/fn is not authorized to perform: "
                        + "bedrock:InvokeModelWithResponseStream on resource: arn:aws:bedrock:eu-central-1::foundation-model/x")
                .error(403, "You don't have access to the model with the specified model ID.")
                .build());
        ModelFailure permission = assertThrows(ModelFailure.class, () -> model.stream(request(List.of(new ModelMessage.User("hi"))), new Recording()));
        assertEquals(ModelFailure.Kind.REJECTED, permission.kind());
        assertTrue(permission.getMessage().contains("bedrock:InvokeModelWithResponseStream"), permission.getMessage());
        assertFalse(permission.getMessage().contains("123456789012"), "the account and role stay out of the user's message");
        ModelFailure access = assertThrows(ModelFailure.class, () -> model.stream(request(List.of(new ModelMessage.User("hi"))), new Recording()));
        assertTrue(access.getMessage().contains("Model access") && access.getMessage().contains(MODEL_ID), access.getMessage());
    }

    @Test
    void aModelStreamErrorMidAnswerFailsAfterTheFirstByte() {
        bedrock.enqueue(ModelScript.builder().turn(t -> t.text("Adding the ")
                .streamException("modelStreamErrorException", "The model failed to stream a response.")).build());
        Recording listener = new Recording();
        ModelFailure failure = assertThrows(ModelFailure.class, () -> model.stream(request(List.of(new ModelMessage.User("hi"))), listener));
        assertEquals(List.of("text:Adding the "), listener.events, "what was streamed stays streamed");
        assertEquals(ModelFailure.Kind.CUT_OFF, failure.kind());
        assertTrue(failure.afterFirstByte());
        assertFalse(failure.retryable());
    }

    @Test
    void aThrottlingExceptionFrameBeforeAnyContentIsRetryable() {
        bedrock.enqueue(ModelScript.builder().turn(t -> t.streamException("throttlingException", "slow down")).build());
        ModelFailure failure = assertThrows(ModelFailure.class, () -> model.stream(request(List.of(new ModelMessage.User("hi"))), new Recording()));
        assertEquals(ModelFailure.Kind.RATE_LIMITED, failure.kind());
        assertTrue(failure.retryable());
    }

    @Test
    void aBadSignatureIsRefused() {
        BedrockChatModel wrongKey = new BedrockChatModel(new BedrockSettings(URI.create(bedrock.endpoint()), "eu-central-1", MODEL_ID,
                Duration.ofSeconds(5)), StaticCredentialsProvider.create(AwsBasicCredentials.create(ACCESS_KEY, "not-the-secret")));
        bedrock.enqueue(ModelScript.builder().say("never").build());
        ModelFailure failure = assertThrows(ModelFailure.class, () -> wrongKey.stream(request(List.of(new ModelMessage.User("hi"))), new Recording()));
        assertEquals(ModelFailure.Kind.REJECTED, failure.kind());
        assertTrue(failure.getMessage().contains("credentials"), failure.getMessage());
    }

    /** The stand-in holds a shell's temporary credentials to Bedrock's rules: its token sent and signed, its region scoped. */
    @Test
    void temporaryCredentialsAreSignedWithTheirTokenForTheirRegion() throws Exception {
        try (BedrockModelServer strict = BedrockModelServer.start().verifySignatures("ASIASTANDIN000000001", SECRET_KEY, "a-session-token", "eu-west-1")) {
            var session = StaticCredentialsProvider.create(AwsSessionCredentials.create("ASIASTANDIN000000001", SECRET_KEY, "a-session-token"));
            strict.enqueue(ModelScript.builder().say("signed").build());
            new BedrockChatModel(new BedrockSettings(URI.create(strict.endpoint()), "eu-west-1", MODEL_ID, Duration.ofSeconds(5)), session)
                    .stream(request(List.of(new ModelMessage.User("hi"))), new Recording());
            var sent = strict.requests().getFirst().headers();
            assertTrue(sent.get("Authorization").startsWith("AWS4-HMAC-SHA256 Credential=ASIASTANDIN000000001/"), sent.get("Authorization"));
            assertTrue(sent.get("Authorization").contains("/eu-west-1/bedrock/aws4_request"), sent.get("Authorization"));
            assertTrue(sent.get("Authorization").contains("x-amz-security-token"), "the token is signed: " + sent.get("Authorization"));
            assertEquals("<redacted>", sent.get("X-Amz-Security-Token"), "sent, and not kept");

            for (BedrockChatModel wrong : List.of(
                    new BedrockChatModel(new BedrockSettings(URI.create(strict.endpoint()), "us-east-1", MODEL_ID, Duration.ofSeconds(5)), session),
                    new BedrockChatModel(new BedrockSettings(URI.create(strict.endpoint()), "eu-west-1", MODEL_ID, Duration.ofSeconds(5)),
                            StaticCredentialsProvider.create(AwsBasicCredentials.create("ASIASTANDIN000000001", SECRET_KEY))))) {
                strict.enqueue(ModelScript.builder().say("never").build());
                ModelFailure failure = assertThrows(ModelFailure.class, () -> wrong.stream(request(List.of(new ModelMessage.User("hi"))), new Recording()));
                assertEquals(ModelFailure.Kind.REJECTED, failure.kind());
            }
            assertEquals(2, strict.violations().size(), strict.violations().toString());
        }
    }

    @Test
    void theCancelHookStopsTheStream() throws Exception {
        bedrock.enqueue(ModelScript.builder().turn(t -> t.text("first").waitFor("never").text("late")).build());
        AtomicReference<Runnable> cancel = new AtomicReference<>();
        ModelRequest request = new ModelRequest(List.of(new ModelMessage.User("hi")), List.of(tool("apply_column_change")), 100,
                Instant.now().plusSeconds(30), cancel::set);
        ModelStreamListener cancelling = new Recording() {
            @Override
            public void textDelta(String delta) {
                super.textDelta(delta);
                cancel.get().run(); // what the turn does when the client goes away
            }
        };
        long started = System.nanoTime();
        assertThrows(ModelFailure.class, () -> model.stream(request, cancelling));
        assertTrue(Duration.ofNanos(System.nanoTime() - started).compareTo(Duration.ofSeconds(20)) < 0, "did not wait for the model");
        bedrock.release("never");
        assertEquals("client-gone", awaitOutcome(0), "the stand-in saw its stream closed");
    }

    @Test
    void aSilentStreamTimesOutAndTheDeadlineEndsTheCall() throws Exception {
        BedrockChatModel impatient = model(bedrock, Duration.ofMillis(300));
        bedrock.enqueue(ModelScript.builder().turn(t -> t.text("first").waitFor("never")).build());
        ModelFailure idle = assertThrows(ModelFailure.class, () -> impatient.stream(request(List.of(new ModelMessage.User("hi"))), new Recording()));
        assertEquals(ModelFailure.Kind.TIMEOUT, idle.kind());

        bedrock.enqueue(ModelScript.builder().turn(t -> t.text("first").waitFor("never")).build());
        ModelRequest shortTurn = new ModelRequest(List.of(new ModelMessage.User("hi")), List.of(tool("apply_column_change")), 100,
                Instant.now().plusMillis(400), null);
        ModelFailure late = assertThrows(ModelFailure.class, () -> model.stream(shortTurn, new Recording()));
        assertEquals(ModelFailure.Kind.OUT_OF_TIME, late.kind());
    }

    @Test
    void aListenerFailureStopsTheStreamAsAnIoException() {
        ModelStreamListener goneChecked = new ModelStreamListener() {
            @Override
            public void textDelta(String delta) throws IOException {
                throw new IOException("client gone");
            }

            @Override
            public void toolCallStarted(String toolCallId, String toolName) {
            }

            @Override
            public void toolCallArgumentsDelta(String toolCallId, String delta) {
            }
        };
        bedrock.enqueue(ModelScript.builder().turn(t -> t.text("one").waitFor("never")).build());
        assertThrows(IOException.class, () -> model.stream(request(List.of(new ModelMessage.User("hi"))), goneChecked));
    }

    private String awaitOutcome(int index) throws Exception {
        return bedrock.awaitAnswered(index, Duration.ofSeconds(10)).answer().outcome();
    }
}
