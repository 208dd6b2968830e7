package dev.tablewright.aisdk;

import dev.tablewright.agent.testing.InMemoryConversations;
import dev.tablewright.agent.testing.ScriptedChatModel;
import dev.tablewright.agent.testing.ScriptedChatModel.Step;
import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.agent.AgentLoop;
import dev.tablewright.agent.InternalTool;
import dev.tablewright.agent.TurnLimits;
import dev.tablewright.agent.model.FinishReason;
import dev.tablewright.agent.memory.MemoryBudget;
import dev.tablewright.agent.model.ModelMessage;
import dev.tablewright.agent.model.ModelRequest;
import dev.tablewright.agent.model.ModelStep;
import dev.tablewright.agent.model.TokenUsage;
import dev.tablewright.agent.model.ToolCallRequest;
import dev.tablewright.agent.toolcall.ToolInvoker;
import dev.tablewright.agent.toolcall.UserInputPort;
import dev.tablewright.aisdk.approval.ToolApprovals;
import dev.tablewright.agent.conversation.ConversationMemory;
import dev.tablewright.aisdk.request.BadChatRequest;
import dev.tablewright.door.RequestBody;
import dev.tablewright.door.TurnStreams;
import dev.tablewright.fakes.stream.UiMessageStreamReader;
import dev.tablewright.catalogue.AgentToolDefinitions;
import dev.tablewright.conversation.StoredConversation;
import dev.tablewright.failure.DomainFailure;
import dev.tablewright.http.stream.InMemoryResponseStream;
import dev.tablewright.toolcontract.ToolRegistry;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The AI SDK's chat endpoint on its own: the real agent loop against a scripted model, the real conversation memory
 * over an in-memory store, the real UI message stream into an in-memory response; no Lambda event, no HTTP server.
 */
class ChatEndpointTest {

    static Step text(String text) {
        return listener -> {
            listener.textDelta(text);
            return new ModelStep(text, List.of(), FinishReason.STOP, new TokenUsage(10, 1));
        };
    }

    static Step calls(ToolCallRequest... calls) {
        return listener -> {
            for (ToolCallRequest c : calls) {
                listener.toolCallStarted(c.id(), c.name());
                listener.toolCallArgumentsDelta(c.id(), c.arguments());
            }
            return new ModelStep("", List.of(calls), FinishReason.TOOL_CALLS, new TokenUsage(10, 1));
        };
    }

    final ScriptedChatModel model = new ScriptedChatModel();
    final InMemoryConversations store = new InMemoryConversations();
    final List<DomainFailure> refused = new ArrayList<>();

    /** The refusal the function gives: here the failure kept, a 400 with its code. */
    final ChatEndpoint.Refusals refusals = (response, failure) -> {
        refused.add(failure);
        response.sendJson(400, ("{\"refused\":\"" + failure.code().wireName() + "\"}").getBytes(StandardCharsets.UTF_8));
    };

    ChatEndpoint endpoint(ConversationMemory memory) {
        ToolRegistry registry = new ToolRegistry(List.of(AgentToolDefinitions.SEARCH_TOOLS, AgentToolDefinitions.UPDATE_EDITABLE_STATUS));
        ToolInvoker none = new ToolInvoker() {
            @Override
            public dev.tablewright.toolcontract.ToolOutcome invoke(dev.tablewright.toolcontract.ToolInvocation invocation) {
                throw new AssertionError("no tool runs behind the invoker here: " + invocation);
            }

            @Override
            public boolean knows(String toolName) {
                return false;
            }
        };
        AgentLoop loop = new AgentLoop(model, registry, InternalTool.standard(registry, none), none, UserInputPort.NONE,
                TurnLimits.DEFAULT.withRetryBackoff(Duration.ofMillis(1)), Clock.systemUTC());
        return new ChatEndpoint(loop, memory, TurnStreams.NONE, ToolApprovals.NONE, refusals);
    }

    ChatEndpoint stored() {
        return endpoint(new ConversationMemory(store, null, null, Clock.systemUTC()));
    }

    static InMemoryResponseStream send(ChatEndpoint endpoint, String method, String path, RequestBody body) {
        InMemoryResponseStream response = new InMemoryResponseStream();
        endpoint.handle(new ChatEndpoint.Request(method, path, body, "user_1"), Optional.empty(), response);
        return response;
    }

    static InMemoryResponseStream post(ChatEndpoint endpoint, String body) {
        return send(endpoint, "POST", "/", RequestBody.of(body));
    }

    static String text(UiMessageStreamReader.Parsed parsed) {
        StringBuilder out = new StringBuilder();
        parsed.ofType("text-delta").forEach(p -> out.append(p.path("delta").asText()));
        return out.toString();
    }

    @Test
    void aTurnIsStreamedAndStoredWholeWithTheAgentsMemory() throws Exception {
        model.steps.add(text("Hello there."));
        InMemoryResponseStream response = post(stored(), """
                {"id":"c1","message":{"id":"u1","role":"user","parts":[{"type":"text","text":"hi"}]},"context":{"page":"tables"}}""");

        assertEquals(200, response.statusCode());
        UiMessageStreamReader.Parsed parsed = UiMessageStreamReader.parse(response.body());
        assertTrue(parsed.done());
        assertEquals("Hello there.", text(parsed));
        StoredConversation c = store.find("user_1", "c1").orElseThrow();
        assertEquals(List.of("u1", parsed.ofType("start").getFirst().path("messageId").asText()),
                c.messages().stream().map(m -> m.id()).toList(), "the question and the answer, stored in one conversation");
        assertEquals("hi", c.summary().title());
        assertTrue(c.memory().orElseThrow().contains("Hello there."), "the agent's transcript is stored beside them");
        assertTrue(refused.isEmpty());
    }

    @Test
    void anUnknownPageIsRefusedThroughTheFunctionsAnswerWithoutAskingTheModel() {
        InMemoryResponseStream response = post(endpoint(ConversationMemory.NONE), """
                {"messages":[{"id":"u1","role":"user","parts":[{"type":"text","text":"hi"}]}],"context":{"page":"billing"}}""");

        assertEquals(400, response.statusCode());
        assertEquals("{\"refused\":\"invalid_request\"}", response.body());
        BadChatRequest bad = assertInstanceOf(BadChatRequest.class, refused.getFirst());
        assertEquals("context.page", bad.field());
        assertEquals("unknown page 'billing': the assistant serves tables", bad.getMessage());
        assertTrue(model.requests.isEmpty());
    }

    @Test
    void aBodyThatCannotBeReadIsRefusedWithTheFieldTheFunctionNamed() {
        InMemoryResponseStream response = send(endpoint(ConversationMemory.NONE), "POST", "/",
                () -> {
                    throw new BadChatRequest("body", "the body is not valid base64");
                });

        assertEquals(400, response.statusCode());
        assertEquals("body", assertInstanceOf(BadChatRequest.class, refused.getFirst()).field());
    }

    @Test
    void theConversationRoutesNeverReadTheBodyAndAnswerOnlyTheirMethod() {
        ChatEndpoint endpoint = endpoint(ConversationMemory.NONE);
        RequestBody unreadable = () -> {
            throw new AssertionError("a stream or stop request's body is never read");
        };

        InMemoryResponseStream stop = send(endpoint, "POST", "/chat/c%201/stop", unreadable);
        assertEquals(204, stop.statusCode(), "nothing runs without a stream log: stopped is a no-op");
        InMemoryResponseStream resume = send(endpoint, "GET", "/chat/c1/stream/", unreadable);
        assertEquals(204, resume.statusCode(), "no running turn to resume");

        InMemoryResponseStream wrongStop = send(endpoint, "GET", "/chat/c1/stop", unreadable);
        assertEquals(405, wrongStop.statusCode());
        assertEquals("{\"error\":{\"code\":\"method_not_allowed\",\"message\":\"POST only\"}}", wrongStop.body());
        InMemoryResponseStream wrongStream = send(endpoint, "POST", "/chat/c1/stream", unreadable);
        assertEquals(405, wrongStream.statusCode());
        assertEquals("{\"error\":{\"code\":\"method_not_allowed\",\"message\":\"GET only\"}}", wrongStream.body());
        assertTrue(refused.isEmpty());
        assertTrue(model.requests.isEmpty());
    }

    /** The first turn of a stored conversation: the model calls the client tool {@code get_tables}, and the turn pauses on it. */
    String pausedOnAClientTool() throws Exception {
        model.steps.add(calls(new ToolCallRequest("call_1", "get_tables", "{\"schema\":\"public\"}")));
        InMemoryResponseStream first = post(stored(), """
                {"id":"c1","message":{"id":"u1","role":"user","parts":[{"type":"text","text":"how many tables?"}]},
                 "clientTools":["get_tables"],"context":{"page":"tables"}}""");
        UiMessageStreamReader.Parsed parsed = UiMessageStreamReader.parse(first.body());
        assertEquals("call_1", parsed.ofType("tool-input-available").getFirst().path("toolCallId").asText());
        return parsed.ofType("start").getFirst().path("messageId").asText();
    }

    /** The paused assistant message resumed with these tool parts in its last step. */
    static String resumed(String messageId, String toolParts) {
        return """
                {"id":"c1","message":{"id":"%s","role":"assistant","parts":[{"type":"step-start"},%s]},
                 "clientTools":["get_tables"],"context":{"page":"tables"}}""".formatted(messageId, toolParts);
    }

    static final String ANSWERED = """
            {"type":"tool-get_tables","toolCallId":"call_1","state":"output-available","input":{"schema":"public"},"output":{"count":3}}""";
    /** A part the paused turn never left open (a client that added it, or a call of another turn). */
    static final String NOT_PENDING = """
            {"type":"tool-get_tables","toolCallId":"call_9","state":"input-available","input":{"schema":"other"}}""";

    static ModelMessage.ToolResult resultOf(ModelRequest request, String toolCallId) {
        return request.messages().stream().filter(m -> m instanceof ModelMessage.ToolResult r && r.toolCallId().equals(toolCallId))
                .map(ModelMessage.ToolResult.class::cast).findFirst().orElseThrow(() -> new AssertionError("no result for " + toolCallId));
    }

    @Test
    void aStoredConversationResumesTheCallsTheAgentRecordedOpenNotThePartsTheMessageLists() throws Exception {
        String messageId = pausedOnAClientTool();
        assertTrue(store.find("user_1", "c1").orElseThrow().memory().orElseThrow().contains("\"paused\""),
                "the paused turn's open calls are kept with the agent's memory");

        model.steps.add(text("There are 3 tables."));
        InMemoryResponseStream response = post(stored(), resumed(messageId, ANSWERED + "," + NOT_PENDING));

        UiMessageStreamReader.Parsed parsed = UiMessageStreamReader.parse(response.body());
        assertEquals("There are 3 tables.", text(parsed));
        assertTrue(parsed.ofType("tool-output-error").isEmpty(),
                "call_9 is not open in the agent's record: it is not resumed (and fails as having no result)");
        ModelRequest second = model.requests.get(1);
        assertEquals("{\"count\":3}", resultOf(second, "call_1").content(), "the message gives the answer");
        assertEquals(MemoryBudget.NOT_COMPLETED, resultOf(second, "call_9").content());
        assertFalse(store.find("user_1", "c1").orElseThrow().memory().orElseThrow().contains("\"paused\""),
                "the turn completed: nothing is open any more");
    }

    @Test
    void aRecordedCallTheMessageDoesNotAnswerHasNoResultAsBefore() throws Exception {
        String messageId = pausedOnAClientTool();

        model.steps.add(text("I could not count them."));
        InMemoryResponseStream response = post(stored(), resumed(messageId, """
                {"type":"tool-get_tables","toolCallId":"call_1","state":"input-available","input":{"schema":"public"}}"""));

        UiMessageStreamReader.Parsed parsed = UiMessageStreamReader.parse(response.body());
        JsonNode error = parsed.ofType("tool-output-error").getFirst();
        assertEquals("call_1", error.path("toolCallId").asText());
        assertEquals("No result came back for this call.", error.path("errorText").asText());
        assertTrue(resultOf(model.requests.get(1), "call_1").content().contains("No result came back"));
    }

    @Test
    void withoutAStoredConversationTheOpenCallsAreTheMessagesOwn() throws Exception {
        model.steps.add(text("There are 3 tables."));
        InMemoryResponseStream response = post(endpoint(ConversationMemory.NONE), """
                {"messages":[{"id":"u1","role":"user","parts":[{"type":"text","text":"how many tables?"}]},
                  {"id":"a1","role":"assistant","parts":[{"type":"step-start"},%s,%s]}],
                 "clientTools":["get_tables"],"context":{"page":"tables"}}""".formatted(ANSWERED, NOT_PENDING));

        UiMessageStreamReader.Parsed parsed = UiMessageStreamReader.parse(response.body());
        assertEquals("call_9", parsed.ofType("tool-output-error").getFirst().path("toolCallId").asText(),
                "the fallback: every part of the last step without a result is open, and call_9 has none");
        assertTrue(resultOf(model.requests.getFirst(), "call_9").content().contains("No result came back"));
    }
}
