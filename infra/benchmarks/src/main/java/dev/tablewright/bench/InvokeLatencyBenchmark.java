package dev.tablewright.bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.agent.AgentLoop;
import dev.tablewright.agent.InternalTool;
import dev.tablewright.agent.TurnLimits;
import dev.tablewright.agent.toolcall.ToolInvoker;
import dev.tablewright.agent.toolcall.UserInputPort;
import dev.tablewright.agent.conversation.ConversationMemory;
import dev.tablewright.door.TurnStreams;
import dev.tablewright.catalogue.DatabaseToolDefinitions;
import dev.tablewright.catalogue.ToolCatalogue;
import dev.tablewright.fakes.model.ModelScript;
import dev.tablewright.fakes.model.ScriptedModelServer;
import dev.tablewright.fakes.tools.InProcessToolInvoker;
import dev.tablewright.functions.chat.ChatFunction;
import dev.tablewright.http.stream.InMemoryResponseStream;
import dev.tablewright.json.Json;
import dev.tablewright.logging.StructuredLog;
import dev.tablewright.openai.ModelSettings;
import dev.tablewright.openai.OpenAiChatModel;
import dev.tablewright.toolcontract.Tool;
import dev.tablewright.toolcontract.ToolDefinition;
import dev.tablewright.toolcontract.ToolEffect;
import dev.tablewright.toolcontract.ToolInvocation;
import dev.tablewright.toolcontract.ToolOutcome;
import dev.tablewright.toolcontract.ToolRegistry;
import dev.tablewright.tools.ApplyFilterChangeTool;
import dev.tablewright.tools.DiscoverTableReferenceTool;
import dev.tablewright.tools.ValidateTableConfigTool;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A turn's wall time with Lambda's invoke latency: each tool call the chat function makes is a Lambda {@code Invoke},
 * here a wait of {@code --warm-ms} for a warm function and {@code --cold-ms} for the first call of a cold one (a
 * SnapStart restore or a cold start) around the tool run in-process. The turn is a first change as a live model makes
 * it: a step of three lookups ({@code search_database_schema}, {@code discover_table_reference},
 * {@code validate_table_config}), an operation, a preview, an answer. Each scenario runs with the lookups one after the
 * other (the catalogue's lookup mark taken off) and at once (as the chat runs them), with no function cold, with the
 * functions {@code --cold} names cold, and as the first turn after a deploy (every tool function cold).
 * <p>{@code infra/bin/chat-bench --invoke-latency [--turns 10] [--warm-ms 25] [--cold-ms 450] [--cold a,b]}
 */
final class InvokeLatencyBenchmark {

    private InvokeLatencyBenchmark() {
    }

    static final List<String> LOOKUPS = List.of("search_database_schema", "discover_table_reference", "validate_table_config");

    static void run(String[] args) throws Exception {
        int turns = ChatTurnBenchmark.intArg(args, "--turns", 10);
        long warmMs = ChatTurnBenchmark.intArg(args, "--warm-ms", 25);
        long coldMs = ChatTurnBenchmark.intArg(args, "--cold-ms", 450);
        Set<String> cold = Set.of(stringArg(args, "--cold", String.join(",", LOOKUPS)).split(","));
        StructuredLog.redirect(new PrintStream(new ByteArrayOutputStream()));
        String config = ChatTurnBenchmark.fixture();
        List<Tool> tools = List.of(new OfflineSchemaSearch(), new DiscoverTableReferenceTool(), new ValidateTableConfigTool(),
                new ApplyFilterChangeTool(), new ChatTurnBenchmark.OfflinePreview());
        Set<String> every = Set.copyOf(tools.stream().map(t -> t.definition().name()).toList());
        System.out.printf("Turn wall time with Lambda invoke latency (warm %d ms, cold %d ms), %d turns each:%n", warmMs, coldMs, turns);
        System.out.println("  step 1: " + String.join(" + ", LOOKUPS) + "; step 2: apply_filter_change; step 3: preview_table_config; step 4: text");
        try (ScriptedModelServer model = ScriptedModelServer.start()) {
            for (Scenario scenario : List.of(new Scenario("every tool function warm", Set.of()),
                    new Scenario("cold: " + String.join(", ", cold), cold),
                    new Scenario("first turn after a deploy (every tool function cold)", every))) {
                System.out.println();
                System.out.println(scenario.name() + ":");
                long[][] byMode = new long[2][];
                for (boolean atOnce : new boolean[] {false, true}) {
                    LatentInvoker invoker = new LatentInvoker(new InProcessToolInvoker(tools), warmMs, coldMs);
                    ChatFunction function = function(model, invoker, atOnce);
                    long[] wall = new long[turns];
                    long[] lookupStep = new long[turns];
                    for (int i = -2; i < turns; i++) { // two turns to warm the JVM, all functions warm
                        invoker.coldOnce(i < 0 ? Set.of() : scenario.cold());
                        enqueueTurn(model);
                        InMemoryResponseStream response = new InMemoryResponseStream();
                        long start = System.nanoTime();
                        function.handle(ChatTurnBenchmark.event(ChatTurnBenchmark.body(config, "only open orders")), response);
                        long elapsed = System.nanoTime() - start;
                        if (!response.body().contains("\"finishReason\":\"stop\"") || !response.body().contains("pv_0b9c1e")) {
                            throw new IllegalStateException("unexpected turn:\n" + response.body());
                        }
                        if (i >= 0) {
                            wall[i] = elapsed;
                            lookupStep[i] = invoker.lookupStepNanos();
                        }
                    }
                    byMode[atOnce ? 1 : 0] = wall;
                    String mode = atOnce ? "at once" : "one after the other";
                    ChatTurnBenchmark.row("whole turn, lookups " + mode, wall);
                    ChatTurnBenchmark.row("  the three lookups, " + mode, lookupStep);
                }
            }
        }
    }

    static ChatFunction function(ScriptedModelServer model, ToolInvoker tools, boolean lookupsAtOnce) {
        OpenAiChatModel chatModel = new OpenAiChatModel(new ModelSettings(model.baseUrl(), "scripted-model", "not-needed", Duration.ofSeconds(30)));
        ToolRegistry registry = ToolCatalogue.registry().offeredOn(ToolDefinition.Audience.AGENT);
        if (!lookupsAtOnce) {
            registry = new ToolRegistry(registry.all().stream().map(InvokeLatencyBenchmark::noLookup).toList());
        }
        AgentLoop loop = new AgentLoop(chatModel, registry, InternalTool.standard(registry, tools), tools, UserInputPort.NONE,
                TurnLimits.DEFAULT, Clock.systemUTC());
        return new ChatFunction(loop, ConversationMemory.NONE, TurnStreams.NONE, event -> "bench_user", Optional::empty);
    }

    /** The definition without the lookup mark: its calls run one after the other, as before the mark. */
    static ToolDefinition noLookup(ToolDefinition d) {
        return new ToolDefinition(d.name(), d.title(), d.description(), d.parameters(), d.output(), d.requiresUserInput(),
                d.coreIn(), d.runsOn(), d.audiences(), d.access(), d.needsApproval(), d.dataSource(), d.view(), false);
    }

    static void enqueueTurn(ScriptedModelServer model) {
        model.enqueue(ModelScript.builder()
                .turn(t -> t.toolCall("call_s", "search_database_schema", "{\"table\":\"sales.orders\"}")
                        .toolCall("call_r", "discover_table_reference", "{\"pg_types\":[\"timestamptz\",\"text\"]}")
                        .toolCall("call_v", "validate_table_config", "{}"))
                .turn(t -> t.toolCall("call_f", "apply_filter_change",
                        "{\"operation\":\"add\",\"filter\":{\"column\":\"status\",\"operator\":\"eq\",\"value\":\"open\"}}"))
                .turn(t -> t.toolCall("call_p", "preview_table_config", "{\"description\":\"Only open orders\"}"))
                .turn(t -> t.text("Here is the preview: ", "open orders only."))
                .build());
    }

    static String stringArg(String[] args, String name, String fallback) {
        List<String> list = new ArrayList<>(Arrays.asList(args));
        int i = list.indexOf(name);
        return i >= 0 && i + 1 < list.size() ? list.get(i + 1) : fallback;
    }

    record Scenario(String name, Set<String> cold) {
    }

    /**
     * The tools behind a Lambda-like invoke: each call waits the warm latency, or the cold one when its function has
     * no instance yet (a call made while another to the same function is still starting starts one too, as Lambda
     * does for concurrent invokes); an instance is warm once a call to it has answered.
     */
    static final class LatentInvoker implements ToolInvoker {
        private final ToolInvoker tools;
        private final long warmMs;
        private final long coldMs;
        private final Set<String> warm = ConcurrentHashMap.newKeySet();
        private volatile long firstLookupStarted;
        private volatile long lastLookupEnded;

        LatentInvoker(ToolInvoker tools, long warmMs, long coldMs) {
            this.tools = tools;
            this.warmMs = warmMs;
            this.coldMs = coldMs;
        }

        /** The next turn starts with these functions cold, the others warm. */
        void coldOnce(Set<String> cold) {
            warm.clear();
            LOOKUPS.forEach(warm::add);
            List.of("apply_filter_change", "preview_table_config").forEach(warm::add);
            warm.removeAll(cold);
            firstLookupStarted = 0;
            lastLookupEnded = 0;
        }

        long lookupStepNanos() {
            return lastLookupEnded - firstLookupStarted;
        }

        @Override
        public ToolOutcome invoke(ToolInvocation invocation) {
            long started = System.nanoTime();
            boolean lookup = LOOKUPS.contains(invocation.tool());
            if (lookup) {
                synchronized (this) {
                    if (firstLookupStarted == 0) {
                        firstLookupStarted = started;
                    }
                }
            }
            try {
                Thread.sleep(warm.contains(invocation.tool()) ? warmMs : coldMs);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            ToolOutcome outcome = tools.invoke(invocation);
            warm.add(invocation.tool());
            if (lookup) {
                synchronized (this) {
                    lastLookupEnded = Math.max(lastLookupEnded, System.nanoTime());
                }
            }
            return outcome;
        }

        @Override
        public boolean knows(String toolName) {
            return tools.knows(toolName);
        }
    }

    /** {@code search_database_schema} describing the orders table without a database: the wait is the invoke's. */
    static final class OfflineSchemaSearch implements Tool {
        @Override
        public ToolDefinition definition() {
            return DatabaseToolDefinitions.SEARCH_DATABASE_SCHEMA;
        }

        @Override
        public ToolOutcome execute(ToolInvocation invocation) {
            ObjectNode table = Json.object().put("schema", "sales").put("table", "orders");
            var columns = table.putArray("columns");
            for (String[] c : new String[][] {{"id", "int8"}, {"created_at", "timestamptz"}, {"status", "text"}, {"created_by", "int8"}}) {
                columns.addObject().put("name", c[0]).put("pg_type", c[1]);
            }
            ObjectNode out = Json.object();
            out.putArray("tables").add(table);
            return ToolOutcome.ok(out, new ToolEffect.None());
        }
    }
}
