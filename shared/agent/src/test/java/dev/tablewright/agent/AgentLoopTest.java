package dev.tablewright.agent;

import dev.tablewright.agent.testing.RecordedOutput;
import dev.tablewright.agent.testing.ScriptedChatModel;
import dev.tablewright.agent.testing.ScriptedChatModel.Step;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.agent.memory.MemoryBudget;
import dev.tablewright.agent.memory.Transcript;
import dev.tablewright.agent.model.ChatModel;
import dev.tablewright.agent.model.FinishReason;
import dev.tablewright.agent.model.ModelFailure;
import dev.tablewright.agent.model.ModelMessage;
import dev.tablewright.agent.model.ModelRequest;
import dev.tablewright.agent.model.ModelStep;
import dev.tablewright.agent.model.TokenUsage;
import dev.tablewright.agent.model.ToolCallRequest;
import dev.tablewright.agent.toolcall.ClientTool;
import dev.tablewright.agent.toolcall.EnvelopeToolInvoker;
import dev.tablewright.agent.toolcall.ToolInvoker;
import dev.tablewright.agent.toolcall.UserInputPort;
import dev.tablewright.catalogue.AgentToolDefinitions;
import dev.tablewright.json.Json;
import dev.tablewright.toolcontract.Tool;
import dev.tablewright.toolcontract.ToolDefinition;
import dev.tablewright.toolcontract.ToolEffect;
import dev.tablewright.toolcontract.ToolExecution;
import dev.tablewright.toolcontract.ToolInvocation;
import dev.tablewright.toolcontract.ToolOutcome;
import dev.tablewright.toolcontract.ToolRegistry;
import dev.tablewright.toolcontract.UserInputRequirement;
import dev.tablewright.userinput.UserInputGate;
import dev.tablewright.validation.ValidationError;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The agent loop on its own, against a fake {@link ChatModel} and tools in this JVM: no HTTP, no Lambda, no UI
 * stream. What it emits, how it ends, and what the model is sent as a conversation grows.
 */
class AgentLoopTest {

    /** The agent's own tools, as the catalogue defines them. */
    static final List<ToolDefinition> AGENT_TOOLS = List.of(AgentToolDefinitions.SEARCH_TOOLS, AgentToolDefinitions.UPDATE_EDITABLE_STATUS);


    static Step text(String... deltas) {
        return listener -> {
            StringBuilder all = new StringBuilder();
            for (String d : deltas) {
                listener.textDelta(d);
                all.append(d);
            }
            return new ModelStep(all.toString(), List.of(), FinishReason.STOP, new TokenUsage(100, deltas.length));
        };
    }

    static Step call(String id, String tool, String arguments) {
        return listener -> {
            listener.toolCallStarted(id, tool);
            listener.toolCallArgumentsDelta(id, arguments);
            return new ModelStep("", List.of(new ToolCallRequest(id, tool, arguments)), FinishReason.TOOL_CALLS, new TokenUsage(50, 5));
        };
    }

    static Step failing(ModelFailure.Kind kind, boolean afterFirstByte) {
        return listener -> {
            if (afterFirstByte) {
                listener.textDelta("partial");
            }
            throw new ModelFailure(kind, "The model service is unavailable.", afterFirstByte);
        };
    }

    /** A config tool: answers a config whose filter holds the value asked for, and a large plan beside it. */
    static final ToolDefinition SET_FILTER = new ToolDefinition("set_filter", "Sets the filter value.",
            Json.objectLiteral("{\"type\":\"object\",\"properties\":{\"value\":{\"type\":\"integer\"},\"config\":{\"type\":\"object\"}}}"),
            null, Set.of("tables"), ToolDefinition.RunsOn.FUNCTION);

    static final Tool SET_FILTER_TOOL = new Tool() {
        public ToolDefinition definition() {
            return SET_FILTER;
        }

        public ToolOutcome execute(ToolInvocation invocation) {
            JsonNode value = invocation.arguments().get("value");
            if (value == null || !value.isInt()) {
                ObjectNode invalid = Json.object().put("valid", false);
                invalid.putArray("errors").addObject().put("field", "value").put("message", "value must be a whole number");
                return ToolOutcome.ok(invalid, new ToolEffect.InvalidConfig(List.of(new ValidationError("value", "value must be a whole number"))));
            }
            ObjectNode config = Json.objectLiteral("{\"name\":\"Stock\",\"data_source\":[{\"schema\":\"public\",\"table\":\"stock\","
                    + "\"columns\":[{\"name\":\"qty\",\"pg_type\":\"int4\"}],\"filters\":[{\"column\":\"qty\",\"operator\":\">\",\"value\":"
                    + value.asInt() + "}]}]}");
            ObjectNode answer = Json.object().put("valid", true);
            answer.set("config", config);
            answer.put("plan", "x".repeat(3000));
            return ToolOutcome.ok(answer, new ToolEffect.ProposedConfig(config));
        }
    };

    ScriptedChatModel model = new ScriptedChatModel();
    TurnLimits limits = TurnLimits.DEFAULT.withRetryBackoff(Duration.ofMillis(1));
    UserInputPort userInput = UserInputPort.NONE;
    List<Tool> tools = new ArrayList<>(List.of(SET_FILTER_TOOL));

    /**
     * The tools run in this JVM under the invoker contract, as the in-process invoker of infra/dev-fakes runs them
     * (this module cannot see the fakes: they depend on it). A tool that fails unexpectedly fails the test.
     */
    static ToolInvoker inThisJvm(List<Tool> tools) {
        return new EnvelopeToolInvoker<>(ToolExecution.byName(tools, UserInputGate.INSTANCE, (tool, failure) -> {
            throw new AssertionError(tool.name() + " failed", failure);
        }), ToolExecution::answer);
    }

    AgentLoop loop() {
        List<ToolDefinition> definitions = new ArrayList<>(AGENT_TOOLS);
        tools.forEach(t -> definitions.add(t.definition()));
        ToolRegistry registry = new ToolRegistry(definitions);
        ToolInvoker invoker = inThisJvm(tools);
        return new AgentLoop(model, registry, InternalTool.standard(registry, invoker), invoker, userInput, limits,
                MemoryBudget.DEFAULT, Clock.systemUTC());
    }

    RecordedOutput out = new RecordedOutput();

    AgentResult say(String text, Transcript history, int turn) {
        return say(text, history, turn, Optional.empty());
    }

    AgentResult say(String text, Transcript history, int turn, Optional<dev.tablewright.conversation.WorkingDraft> draft) {
        return loop().run(new AgentInput("conv_1", "user_1", PageContext.tables(), draft, history, "t" + turn,
                new AgentInput.NewMessage(text), List.of()), out, Optional.empty());
    }

    @Test
    void aTextAnswerStreamsAsItComesAndStopsWithItsUsage() {
        model.steps.add(text("Three ", "warehouses."));
        AgentResult result = say("how many warehouses?", Transcript.EMPTY, 1);
        assertEquals(List.of(AgentEvent.TurnStarted.class, AgentEvent.StepStarted.class, AgentEvent.TextStarted.class,
                        AgentEvent.TextDelta.class, AgentEvent.TextDelta.class, AgentEvent.TextEnded.class,
                        AgentEvent.StepFinished.class, AgentEvent.Stopped.class),
                out.events.stream().map(Object::getClass).toList());
        assertEquals(StopReason.COMPLETED, out.stopped().reason());
        assertEquals(102, out.stopped().usage().total());
        assertEquals(StopReason.COMPLETED, result.reason());
        assertEquals(1, result.transcript().turns().size());
    }

    @Test
    void aStopRequestCancelsTheModelAndEndsTheTurnStoppedKeepingWhatWasSaid() {
        boolean[] cancelled = {false};
        ChatModel stoppable = (request, listener) -> {
            request.cancelHook().register(() -> cancelled[0] = true);
            listener.textDelta("Three ");
            out.stop.raise(); // a stop from elsewhere while the model streams
            if (cancelled[0]) {
                // what a cancelled stream does: the call fails
                throw new ModelFailure(ModelFailure.Kind.UNAVAILABLE, "The connection to the model was lost mid-answer.", true);
            }
            listener.textDelta("warehouses.");
            return new ModelStep("Three warehouses.", List.of(), FinishReason.STOP, TokenUsage.NONE);
        };
        ToolRegistry registry = new ToolRegistry(AGENT_TOOLS);
        AgentLoop loop = new AgentLoop(stoppable, registry, InternalTool.standard(registry, inThisJvm(List.of())),
                inThisJvm(List.of()), userInput, limits, MemoryBudget.DEFAULT, Clock.systemUTC());
        AgentResult result = loop.run(new AgentInput("conv_1", "user_1", PageContext.tables(), Optional.empty(), Transcript.EMPTY,
                "t1", new AgentInput.NewMessage("how many warehouses?"), List.of()), out, Optional.empty());

        assertTrue(cancelled[0], "the model's request was cancelled");
        assertEquals(StopReason.USER_STOPPED, out.stopped().reason());
        assertEquals(StopReason.USER_STOPPED, result.reason());
        assertTrue(out.of(AgentEvent.Failed.class).isEmpty(), "a stop is no failure");
        assertEquals(List.of("Three "), out.of(AgentEvent.TextDelta.class).stream().map(AgentEvent.TextDelta::delta).toList());
        assertInstanceOf(AgentEvent.StepFinished.class, out.events.get(out.events.size() - 2), "the step is closed before the end");
        List<ModelMessage> kept = result.transcript().turns().getLast().messages();
        assertEquals(new ModelMessage.Assistant("Three ", List.of()), kept.getLast(), "the next turn's model reads what was said");
    }

    @Test
    void aRetryableFailureBeforeTheFirstByteIsTriedAgain() {
        model.steps.add(failing(ModelFailure.Kind.RATE_LIMITED, false));
        model.steps.add(text("Here."));
        say("hello", Transcript.EMPTY, 1);
        assertEquals(2, model.requests.size());
        assertTrue(out.of(AgentEvent.Failed.class).isEmpty());
        assertEquals(StopReason.COMPLETED, out.stopped().reason());
    }

    @Test
    void aFailureAfterTheFirstByteIsNotRepeatedAndStopsOnAModelError() {
        model.steps.add(failing(ModelFailure.Kind.UNAVAILABLE, true));
        model.steps.add(text("never"));
        say("hello", Transcript.EMPTY, 1);
        assertEquals(1, model.requests.size(), "what reached the listener is not streamed twice");
        assertEquals("The model service is unavailable.", out.of(AgentEvent.Failed.class).getFirst().message());
        assertEquals(StopReason.MODEL_ERROR, out.stopped().reason());
    }

    @Test
    void aCallTheClientRunsPausesTheTurn() {
        model.steps.add(call("call_1", "show_toast", "{\"message\":\"saved\"}"));
        AgentResult result = loop().run(new AgentInput("conv_1", "user_1", PageContext.tables(), Optional.empty(), Transcript.EMPTY, "t1",
                new AgentInput.NewMessage("tell me"), List.of(new ClientTool("show_toast", "", Json.object().put("type", "object")))),
                out, Optional.empty());
        assertEquals("saved", out.of(AgentEvent.ToolCallReady.class).getFirst().arguments().path("message").asText());
        assertTrue(out.of(AgentEvent.ToolResult.class).isEmpty(), "the agent does not run it");
        assertEquals(StopReason.PAUSED, out.stopped().reason());
        assertEquals(List.of(new DeferredCall("call_1", "show_toast", DeferredCall.Waiting.CLIENT)), result.pending(),
                "the door is handed the call left open");
        assertEquals(Optional.of(new PausedTurn("t1", result.pending())), result.paused(), "under the turn's key, to be kept");
        assertEquals(1, model.requests.size());
    }

    @Test
    void aResumedCallRecordedAsTheClientsHasNoResultWithoutItsAnswerWhateverItsToolIs() {
        model.steps.add(text("It did not come back."));
        List<ModelMessage> soFar = List.of(new ModelMessage.User("filter it"),
                new ModelMessage.Assistant("", List.of(new ToolCallRequest("call_1", "set_filter", "{\"value\":1}"))));
        loop().run(new AgentInput("conv_1", "user_1", PageContext.tables(), Optional.empty(), Transcript.EMPTY, "t1",
                new AgentInput.Resume(soFar, List.of(new AgentInput.PendingCall("call_1", "set_filter", Json.object().put("value", 1),
                        Optional.of(DeferredCall.Waiting.CLIENT)))), List.of()), out, Optional.empty());
        assertEquals("No result came back for this call.", out.of(AgentEvent.ToolFailed.class).getFirst().message(),
                "the call is not run here, though a tool of its name is: the agent recorded it as the client's");
        assertEquals(StopReason.COMPLETED, out.stopped().reason());
    }

    @Test
    void aToolsConfigBecomesTheWorkingConfigAndItsResultGoesBackToTheModel() {
        model.steps.add(call("call_1", "set_filter", "{\"value\":100}"));
        model.steps.add(text("Done."));
        AgentResult result = say("only above 100", Transcript.EMPTY, 1);
        List<ModelMessage> second = model.requests.get(1).messages();
        assertInstanceOf(ModelMessage.ToolResult.class, second.getLast());
        assertTrue(((ModelMessage.System) second.getFirst()).text().contains("qty > 100"), second.getFirst().toString());
        assertTrue(result.draft().isPresent());
    }

    @Test
    void theWorkingConfigIsSaidAtTheStartAndWhenAToolChangesIt() {
        model.steps.add(call("call_1", "set_filter", "{\"value\":100}"));
        model.steps.add(text("Done."));
        AgentResult first = say("only above 100", Transcript.EMPTY, 1);
        List<AgentEvent.WorkingConfigChanged> changed = out.of(AgentEvent.WorkingConfigChanged.class);
        assertEquals(1, changed.size(), "no config at the start, one change");
        assertEquals(100, changed.getFirst().config().at("/data_source/0/filters/0/value").asInt());
        assertEquals(out.events.indexOf(out.of(AgentEvent.ToolResult.class).getFirst()) + 1, out.events.indexOf(changed.getFirst()),
                "right after the tool's answer");

        out = new RecordedOutput();
        model.steps.add(call("call_2", "update_editable_status", "{\"fieldName\":\"name\",\"value\":\"Big stock\"}"));
        model.steps.add(text("Renamed."));
        say("call it Big stock", first.transcript(), 2, first.draft());
        changed = out.of(AgentEvent.WorkingConfigChanged.class);
        assertInstanceOf(AgentEvent.WorkingConfigChanged.class, out.events.get(1), "the config the turn starts from, after TurnStarted");
        assertEquals("Stock", changed.getFirst().config().path("name").asText());
        assertEquals(2, changed.size());
        assertEquals("Big stock", changed.getLast().config().path("name").asText());
    }

    @Test
    void aPreviewIsReadyAsATypedPreviewAfterTheConfigItWouldSave() {
        tools.add(new Tool() {
            public ToolDefinition definition() {
                return new ToolDefinition("preview_table_config", "Previews.", Json.object().put("type", "object"), null,
                        Set.of("tables"), ToolDefinition.RunsOn.FUNCTION);
            }

            public ToolOutcome execute(ToolInvocation invocation) {
                ObjectNode answer = Json.objectLiteral("{\"valid\":true,\"previewId\":\"prv_1\",\"configId\":\"cfg_1\","
                        + "\"baseVersion\":3,\"description\":\"Adds a filter.\",\"config\":{\"name\":\"Stock\"},"
                        + "\"rows\":[{\"qty\":5}],\"expiresAt\":\"2026-12-01T10:00:00Z\"}");
                return ToolOutcome.ok(answer, new ToolEffect.Previewed("prv_1", answer.get("config")));
            }
        });
        model.steps.add(call("call_1", "preview_table_config", "{}"));
        model.steps.add(text("Keep it?"));
        say("preview it", Transcript.EMPTY, 1);
        AgentEvent.PreviewReady ready = out.of(AgentEvent.PreviewReady.class).getFirst();
        Preview p = ready.preview();
        assertEquals(List.of("prv_1", "cfg_1", 3L, "Adds a filter.", "2026-12-01T10:00:00Z", 5, "Stock"),
                List.of(p.previewId(), p.configId(), p.baseVersion(), p.summary(), p.expiresAt().toString(),
                        p.rows().getFirst().path("qty").asInt(), p.config().path("name").asText()));
        assertEquals("call_1", ready.toolCallId());
        int readyAt = out.events.indexOf(ready);
        assertEquals("Stock", assertInstanceOf(AgentEvent.WorkingConfigChanged.class, out.events.get(readyAt - 1))
                .config().path("name").asText(), "the config it would save is the working config before the preview");
    }

    @Test
    void theRepairBoundStopsTheTurnWithoutAskingTheModelAgain() {
        limits = limits.withMaxRepairs(1);
        model.steps.add(call("c1", "set_filter", "{\"value\":\"many\"}"));
        model.steps.add(call("c2", "set_filter", "{\"value\":\"lots\"}"));
        model.steps.add(text("never"));
        say("only above many", Transcript.EMPTY, 1);
        assertEquals(2, model.requests.size());
        assertEquals("value", out.of(AgentEvent.RepairBoundReached.class).getFirst().errors().getFirst().field());
        assertEquals(StopReason.REPAIR_BOUND, out.stopped().reason());
    }

    @Test
    void aToolThatNeedsInputPausesAndTheNextTurnResumesItWithTheAnswer() {
        UserInputRequirement needs = new UserInputRequirement("Which database?", List.of(), false, null);
        Map<String, String> answered = new java.util.HashMap<>();
        List<String> ranWith = new ArrayList<>();
        userInput = new UserInputPort() {
            public Readiness check(String o, String c, ToolDefinition tool, ObjectNode arguments, Map<String, String> submitted) {
                return new Readiness(arguments, submitted, submitted.isEmpty() ? Optional.of(needs) : Optional.empty());
            }

            public String request(String o, String c, String toolCallId, String toolName, UserInputRequirement r) {
                return "req_" + toolCallId;
            }

            public Optional<Answer> answer(String o, String c, String toolCallId) {
                return Optional.of(new Answer("req_" + toolCallId, answered.isEmpty() ? "pending" : "completed", answered));
            }
        };
        tools.add(new Tool() {
            public ToolDefinition definition() {
                return new ToolDefinition("search", "Searches.", Json.object().put("type", "object"), null, Set.of("tables"), null);
            }

            public ToolOutcome execute(ToolInvocation invocation) {
                ranWith.add(invocation.sessionValues().get("database"));
                return ToolOutcome.ok(Json.object().put("tables", 3));
            }
        });
        model.steps.add(call("c1", "search", "{}"));
        AgentResult paused = say("what tables?", Transcript.EMPTY, 1);
        assertEquals("req_c1", out.of(AgentEvent.InputRequested.class).getFirst().requestId());
        assertEquals(StopReason.PAUSED, paused.reason());
        assertEquals(List.of(new DeferredCall("c1", "search", DeferredCall.Waiting.USER_INPUT)), paused.pending());

        answered.put("database", "staging");
        model.steps.add(text("Three tables."));
        out = new RecordedOutput();
        List<ModelMessage> soFar = List.of(new ModelMessage.User("what tables?"),
                new ModelMessage.Assistant("", List.of(new ToolCallRequest("c1", "search", "{}"))));
        loop().run(new AgentInput("conv_1", "user_1", PageContext.tables(), Optional.empty(), Transcript.EMPTY, "t1",
                new AgentInput.Resume(soFar, List.of(new AgentInput.PendingCall("c1", "search", Json.object()))), List.of()),
                out, Optional.empty());
        assertEquals(List.of("staging"), ranWith);
        assertEquals(StopReason.COMPLETED, out.stopped().reason());
        assertEquals(1, model.requests.size() - 1, "the resumed call is not asked of the model again");
    }

    @Test
    void aLongConversationSendsTheModelABoundedHistoryThatStillNamesTheConfig() {
        Transcript history = Transcript.EMPTY;
        Optional<dev.tablewright.conversation.WorkingDraft> draft = Optional.empty();
        int[] firstRequestChars = new int[61];
        for (int turn = 1; turn <= 60; turn++) {
            model.requests.clear();
            model.steps.add(call("c" + turn, "set_filter", "{\"value\":" + (100 + turn) + "}"));
            model.steps.add(text("The filter is now above " + (100 + turn) + "."));
            out = new RecordedOutput();
            AgentResult result = say("only quantities above " + (100 + turn), history, turn, draft);
            assertEquals(StopReason.COMPLETED, result.reason());
            for (ModelRequest request : model.requests) {
                assertEveryToolResultAnswersACall(request.messages());
            }
            firstRequestChars[turn] = chars(model.requests.getFirst().messages());
            history = result.transcript();
            draft = result.draft();
        }
        // once the digest holds its most lines, the request stops growing: turn 60 is turn 50 but for the numbers in it
        assertTrue(Math.abs(firstRequestChars[60] - firstRequestChars[50]) <= 100, firstRequestChars[50] + " → " + firstRequestChars[60]);
        assertTrue(firstRequestChars[60] <= 60_000, "turn 60: " + firstRequestChars[60]);
        assertTrue(firstRequestChars[60] < 3 * firstRequestChars[5], firstRequestChars[5] + " → " + firstRequestChars[60]);
        String system = ((ModelMessage.System) model.requests.getFirst().messages().getFirst()).text();
        assertTrue(system.contains("Earlier in this conversation"), system);
        assertTrue(system.contains("only quantities above 130"), "the digest keeps what earlier turns asked");
        assertTrue(system.contains("qty > 159"), "the working config, as the last turn left it: " + system);
        assertTrue(history.turns().size() <= MemoryBudget.DEFAULT.verbatimTurns() + 1 + MemoryBudget.DEFAULT.maxDigestLines());
    }

    static void assertEveryToolResultAnswersACall(List<ModelMessage> messages) {
        Set<String> calls = new HashSet<>();
        Set<String> answered = new HashSet<>();
        for (ModelMessage m : messages) {
            if (m instanceof ModelMessage.Assistant a) {
                a.toolCalls().forEach(c -> calls.add(c.id()));
            } else if (m instanceof ModelMessage.ToolResult r) {
                assertTrue(calls.contains(r.toolCallId()), "a result without its call: " + r.toolCallId());
                assertTrue(answered.add(r.toolCallId()), "answered twice: " + r.toolCallId());
            }
        }
        assertEquals(calls, answered, "every call is answered");
    }

    static int chars(List<ModelMessage> messages) {
        return messages.stream().mapToInt(m -> m.toString().length()).sum();
    }

    @Test
    void theStoredTranscriptRoundTripsAndAHistoryStartingMidTurnIsRepaired() {
        List<ModelMessage> dangling = List.of(new ModelMessage.User("q"),
                new ModelMessage.Assistant("", List.of(new ToolCallRequest("x1", "set_filter", "{}"))),
                new ModelMessage.ToolResult("orphan", "{}"));
        List<ModelMessage> paired = MemoryBudget.paired(dangling);
        assertEveryToolResultAnswersACall(paired);
        assertFalse(paired.stream().anyMatch(m -> m instanceof ModelMessage.ToolResult r && r.toolCallId().equals("orphan")));
        Transcript t = new Transcript(List.of(new dev.tablewright.agent.memory.TranscriptTurn("k", dangling, "d")));
        assertEquals(t, dev.tablewright.agent.memory.TranscriptJson.read(dev.tablewright.agent.memory.TranscriptJson.write(t)).orElseThrow());
    }
}
