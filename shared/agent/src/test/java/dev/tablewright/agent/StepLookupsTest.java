package dev.tablewright.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.agent.memory.MemoryBudget;
import dev.tablewright.agent.memory.Transcript;
import dev.tablewright.agent.model.FinishReason;
import dev.tablewright.agent.model.ModelMessage;
import dev.tablewright.agent.model.ModelStep;
import dev.tablewright.agent.model.TokenUsage;
import dev.tablewright.agent.model.ToolCallRequest;
import dev.tablewright.agent.testing.RecordedOutput;
import dev.tablewright.agent.testing.ScriptedChatModel;
import dev.tablewright.agent.toolcall.ToolInvoker;
import dev.tablewright.agent.toolcall.UserInputPort;
import dev.tablewright.json.Json;
import dev.tablewright.toolcontract.ToolDefinition;
import dev.tablewright.toolcontract.ToolEffect;
import dev.tablewright.toolcontract.ToolInvocation;
import dev.tablewright.toolcontract.ToolOutcome;
import dev.tablewright.toolcontract.ToolRegistry;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The lookups of one step run at once ({@link StepLookups}): proven with latches that only concurrent calls pass
 * (a call run alone would wait for the others until its latch gives up, and answer that it gave up), while the
 * events and the model's messages stay in the model's order, as one call after the other would leave them.
 */
class StepLookupsTest {

    /** Long enough never to be reached when the calls do run at once; reached (and the test fails) when they do not. */
    static final long GIVE_UP_SECONDS = 20;

    static ToolDefinition tool(String name, boolean lookup, boolean takesConfig) {
        String schema = takesConfig ? "{\"type\":\"object\",\"properties\":{\"config\":{\"type\":\"object\"}}}" : "{\"type\":\"object\"}";
        ToolDefinition plain = new ToolDefinition(name, "Does " + name + ".", Json.objectLiteral(schema), null, Set.of("tables"),
                ToolDefinition.RunsOn.FUNCTION);
        return lookup ? plain.asLookup() : plain;
    }

    static ScriptedChatModel.Step calls(String... idAndTool) {
        return listener -> {
            List<ToolCallRequest> requests = new ArrayList<>();
            for (String pair : idAndTool) {
                String[] parts = pair.split(":");
                listener.toolCallStarted(parts[0], parts[1]);
                requests.add(new ToolCallRequest(parts[0], parts[1], "{}"));
            }
            return new ModelStep("", requests, FinishReason.TOOL_CALLS, new TokenUsage(50, 5));
        };
    }

    static ScriptedChatModel.Step done() {
        return listener -> {
            listener.textDelta("Done.");
            return new ModelStep("Done.", List.of(), FinishReason.STOP, new TokenUsage(10, 1));
        };
    }

    /** Tools answered by {@code answer}, which hears every invocation, on whatever thread calls it. */
    record Tools(List<ToolDefinition> definitions, Function<ToolInvocation, ToolOutcome> answer) implements ToolInvoker {
        @Override
        public ToolOutcome invoke(ToolInvocation invocation) {
            return answer.apply(invocation);
        }

        @Override
        public boolean knows(String toolName) {
            return definitions.stream().anyMatch(d -> d.name().equals(toolName));
        }
    }

    final ScriptedChatModel model = new ScriptedChatModel();
    final RecordedOutput out = new RecordedOutput();
    TurnLimits limits = TurnLimits.DEFAULT.withRetryBackoff(Duration.ofMillis(1));

    AgentResult run(Tools tools) {
        ToolRegistry registry = new ToolRegistry(tools.definitions());
        AgentLoop loop = new AgentLoop(model, registry, List.of(), tools, UserInputPort.NONE,
                limits, MemoryBudget.DEFAULT, Clock.systemUTC());
        return loop.run(new AgentInput("conv_1", "user_1", PageContext.tables(), Optional.empty(), Transcript.EMPTY, "t1",
                new AgentInput.NewMessage("look it up"), List.of()), out, Optional.empty());
    }

    static ToolOutcome answer(String text) {
        return ToolOutcome.ok(Json.object().put("answer", text), new ToolEffect.None());
    }

    static void await(CountDownLatch latch) {
        try {
            if (!latch.await(GIVE_UP_SECONDS, TimeUnit.SECONDS)) {
                throw new AssertionError("gave up waiting: the calls did not run at once");
            }
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    /** The events of the turn's tool calls as "ready id" and "result id", in the order they were emitted. */
    List<String> toolEvents() {
        List<String> seen = new ArrayList<>();
        for (AgentEvent e : out.events) {
            switch (e) {
                case AgentEvent.ToolCallReady r -> seen.add("ready " + r.toolCallId());
                case AgentEvent.ToolResult r -> seen.add("result " + r.toolCallId() + " " + r.output().path("answer").asText());
                case AgentEvent.ToolFailed f -> seen.add("failed " + f.toolCallId());
                default -> { }
            }
        }
        return seen;
    }

    static List<String> toolResults(AgentResult result) {
        return result.transcript().turns().getLast().messages().stream()
                .filter(m -> m instanceof ModelMessage.ToolResult).map(m -> ((ModelMessage.ToolResult) m).toolCallId()).toList();
    }

    @Test
    void threeLookupsOfAStepRunAtOnceAndAnswerInTheModelsOrder() {
        CountDownLatch allStarted = new CountDownLatch(3);
        Tools tools = new Tools(List.of(tool("a", true, false), tool("b", true, false), tool("c", true, false)), invocation -> {
            allStarted.countDown();
            await(allStarted); // passes only once all three are under way
            return answer(invocation.tool());
        });
        model.steps.add(calls("c1:a", "c2:b", "c3:c"));
        model.steps.add(done());

        AgentResult result = run(tools);

        assertEquals(List.of("ready c1", "result c1 a", "ready c2", "result c2 b", "ready c3", "result c3 c"), toolEvents(),
                "each call's arguments, then its result, call after call: the stream one after the other would give");
        assertEquals(List.of("c1", "c2", "c3"), toolResults(result), "the model reads the results in its own order");
        assertEquals(StopReason.COMPLETED, result.reason());
    }

    @Test
    void aLookupThatAnswersFirstWaitsForTheCallsTheModelAskedForBeforeIt() {
        CountDownLatch lastAnswered = new CountDownLatch(1);
        List<String> answered = Collections.synchronizedList(new ArrayList<>());
        Tools tools = new Tools(List.of(tool("a", true, false), tool("b", true, false)), invocation -> {
            if (invocation.tool().equals("a")) {
                await(lastAnswered); // the first call answers only after the second has
            }
            answered.add(invocation.toolCallId());
            if (invocation.tool().equals("b")) {
                lastAnswered.countDown();
            }
            return answer(invocation.tool());
        });
        model.steps.add(calls("c1:a", "c2:b"));
        model.steps.add(done());

        AgentResult result = run(tools);

        assertEquals(List.of("c2", "c1"), answered, "the second call answered first");
        assertEquals(List.of("ready c1", "result c1 a", "ready c2", "result c2 b"), toolEvents());
        assertEquals(List.of("c1", "c2"), toolResults(result));
    }

    @Test
    void atMostFourLookupsRunAtATime() {
        limits = limits.withMaxToolCallsPerStep(6);
        AtomicInteger running = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        CountDownLatch fourStarted = new CountDownLatch(StepLookups.AT_ONCE);
        List<ToolDefinition> six = new ArrayList<>();
        for (int i = 1; i <= 6; i++) {
            six.add(tool("t" + i, true, false));
        }
        Tools tools = new Tools(six, invocation -> {
            most.accumulateAndGet(running.incrementAndGet(), Math::max);
            fourStarted.countDown();
            await(fourStarted);
            running.decrementAndGet();
            return answer(invocation.tool());
        });
        model.steps.add(calls("c1:t1", "c2:t2", "c3:t3", "c4:t4", "c5:t5", "c6:t6"));
        model.steps.add(done());

        AgentResult result = run(tools);

        assertEquals(StepLookups.AT_ONCE, most.get(), "four at once, never more");
        assertEquals(List.of("c1", "c2", "c3", "c4", "c5", "c6"), toolResults(result));
    }

    @Test
    void aCallThatIsNoLookupAndEverythingAfterItKeepTheirOrder() {
        List<String> log = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch bothLookups = new CountDownLatch(2);
        Tools tools = new Tools(List.of(tool("a", true, false), tool("b", true, false), tool("change", false, false),
                tool("c", true, false)), invocation -> {
            log.add("start " + invocation.tool());
            if (invocation.tool().equals("a") || invocation.tool().equals("b")) {
                bothLookups.countDown();
                await(bothLookups);
            }
            log.add("end " + invocation.tool());
            return answer(invocation.tool());
        });
        model.steps.add(calls("c1:a", "c2:b", "c3:change", "c4:c"));
        model.steps.add(done());

        AgentResult result = run(tools);

        List<String> afterLookups = log.subList(4, log.size());
        assertEquals(List.of("start change", "end change", "start c", "end c"), afterLookups,
                "the change runs after the lookups before it, and the lookups after it one by one: " + log);
        assertEquals(List.of("c1", "c2", "c3", "c4"), toolResults(result));
    }

    @Test
    void aLookupSentAWorkingConfigThatAnEarlierAnswerReplacedIsAskedAgainWithTheNewOne() {
        ObjectNode checked = Json.objectLiteral("{\"name\":\"Checked\"}");
        Map<String, List<JsonNode>> sent = new ConcurrentHashMap<>();
        CountDownLatch bothStarted = new CountDownLatch(2);
        Tools tools = new Tools(List.of(tool("validate", true, true), tool("describe", true, true)), invocation -> {
            sent.computeIfAbsent(invocation.toolCallId(), k -> Collections.synchronizedList(new ArrayList<>()))
                    .add(invocation.workingConfig());
            if (sent.values().stream().mapToInt(List::size).sum() <= 2) {
                bothStarted.countDown();
                await(bothStarted);
            }
            if (invocation.tool().equals("validate")) {
                // a validation's answer: the config it checked becomes the working config
                return ToolOutcome.ok(Json.object().put("answer", "valid").set("config", checked), new ToolEffect.ProposedConfig(checked));
            }
            return answer(invocation.workingConfig() == null ? "none" : invocation.workingConfig().path("name").asText());
        });
        model.steps.add(calls("c1:validate", "c2:describe"));
        model.steps.add(done());

        AgentResult result = run(tools);

        assertEquals(2, sent.get("c2").size(), "run ahead with the config as it stood, then again: " + sent);
        assertEquals(checked, sent.get("c2").get(1));
        assertEquals(List.of("ready c1", "result c1 valid", "ready c2", "result c2 Checked"), toolEvents(),
                "the model reads the answer for the config as the validation left it");
        assertEquals(List.of("c1", "c2"), toolResults(result));
    }

    @Test
    void theStreamAndTheStoredTurnAreWhatTheyAreOneCallAfterTheOther() {
        Function<Boolean, AgentResult> turn = lookups -> {
            model.steps.clear();
            out.events.clear();
            model.steps.add(calls("c1:a", "c2:b", "c3:change", "c4:c"));
            model.steps.add(done());
            return run(new Tools(List.of(tool("a", lookups, false), tool("b", lookups, false), tool("change", false, false),
                    tool("c", lookups, false)), invocation -> answer(invocation.tool())));
        };
        AgentResult oneByOne = turn.apply(false);
        List<AgentEvent> oneByOneEvents = List.copyOf(out.events);
        AgentResult atOnce = turn.apply(true);

        assertEquals(withoutTextIds(oneByOneEvents), withoutTextIds(out.events));
        assertEquals(oneByOne.transcript().turns().getLast().messages(), atOnce.transcript().turns().getLast().messages());
        assertTrue(toolEvents().contains("result c3 change"));
    }

    /** The events with the text parts' fresh ids left out (each turn draws new ones). */
    static List<Object> withoutTextIds(List<AgentEvent> events) {
        return events.stream().map(e -> switch (e) {
            case AgentEvent.TextStarted t -> "text-start";
            case AgentEvent.TextDelta t -> "text " + t.delta();
            case AgentEvent.TextEnded t -> "text-end";
            default -> (Object) e;
        }).toList();
    }
}
