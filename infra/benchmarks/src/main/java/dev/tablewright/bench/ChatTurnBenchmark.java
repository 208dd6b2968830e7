package dev.tablewright.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;
import dev.tablewright.agent.AgentLoop;
import dev.tablewright.agent.InternalTool;
import dev.tablewright.agent.TurnLimits;
import dev.tablewright.agent.model.ChatModel;
import dev.tablewright.agent.toolcall.ToolInvoker;
import dev.tablewright.agent.toolcall.UserInputPort;
import dev.tablewright.agent.conversation.ConversationMemory;
import dev.tablewright.door.TurnStreams;
import dev.tablewright.http.stream.InMemoryResponseStream;
import dev.tablewright.catalogue.ConfigStoreToolDefinitions;
import dev.tablewright.catalogue.DatabaseToolDefinitions;
import dev.tablewright.catalogue.OperationToolDefinitions;
import dev.tablewright.catalogue.ToolCatalogue;
import dev.tablewright.codec.ConfigJson;
import dev.tablewright.config.BuilderStateMapping;
import dev.tablewright.config.TableConfig;
import dev.tablewright.fakes.model.ModelScript;
import dev.tablewright.fakes.model.RecordedRequest;
import dev.tablewright.fakes.model.ScriptedModelServer;
import dev.tablewright.fakes.tools.InProcessToolInvoker;
import dev.tablewright.functions.chat.ChatFunction;
import dev.tablewright.json.Json;
import dev.tablewright.logging.StructuredLog;
import dev.tablewright.openai.ModelSettings;
import dev.tablewright.openai.OpenAiChatModel;
import dev.tablewright.toolcontract.ToolDefinition;
import dev.tablewright.toolcontract.ToolRegistry;
import dev.tablewright.tools.ApplyColumnChangeTool;
import dev.tablewright.tools.ApplyFilterChangeTool;
import dev.tablewright.tools.ApplyJoinChangeTool;
import dev.tablewright.tools.ApplySortChangeTool;
import dev.tablewright.tools.DiscoverTableReferenceTool;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The chat turn's own cost, apart from the model's:
 * <ol>
 *   <li>overhead: a turn through the real streaming path (openai-java → the scripted model with zero delays →
 *       the tool loop → the UI message stream writer) minus the time the model server spent answering;</li>
 *   <li>first token to first byte: from the scripted model sending its first text delta to that delta leaving the
 *       turn as a flushed {@code text-delta} event;</li>
 *   <li>the prompt's size in tokens (jtokkit, o200k_base) for the tables context: system prompt plus tool schemas
 *       as sent, against a one-shot approach (the whole state in the prompt, the whole config rewritten by
 *       the model for every change).</li>
 * </ol>
 * {@code infra/bin/chat-bench --turns 300 --warmup 100}; with {@code --invoke-latency}, a turn's wall time with
 * Lambda's invoke latency instead ({@link InvokeLatencyBenchmark}).
 */
public final class ChatTurnBenchmark {

    public static void main(String[] args) throws Exception {
        if (Arrays.asList(args).contains("--invoke-latency")) {
            InvokeLatencyBenchmark.run(args);
            return;
        }
        int turns = intArg(args, "--turns", 300);
        int warmup = intArg(args, "--warmup", 100);
        StructuredLog.redirect(new PrintStream(new ByteArrayOutputStream())); // one log line per turn would dominate
        String config = fixture();
        try (ScriptedModelServer model = ScriptedModelServer.start()) {
            ChatFunction function = function(model);
            System.out.println("Chat turn benchmark: " + turns + " measured turns after " + warmup + " warm-up turns each");
            overhead(function, model, config, warmup, turns);
            firstTokenToFirstByte(function, model, config, warmup, turns);
            promptSize(model, function, config);
            wholeChange(model, function, config);
        }
    }

    static ChatFunction function(ScriptedModelServer model) {
        OpenAiChatModel chatModel = new OpenAiChatModel(new ModelSettings(model.baseUrl(), "scripted-model", "not-needed", Duration.ofSeconds(30)));
        InProcessToolInvoker tools = new InProcessToolInvoker(List.of(new ApplyColumnChangeTool(), new ApplyFilterChangeTool(),
                new ApplyJoinChangeTool(), new ApplySortChangeTool(), new DiscoverTableReferenceTool(), new OfflinePreview()));
        return new ChatFunction(agentLoop(chatModel, tools), ConversationMemory.NONE, TurnStreams.NONE, event -> "bench_user", Optional::empty);
    }

    /** The agent as the chat function wires it: the catalogue's chat tools, the agent's own among them. */
    static AgentLoop agentLoop(ChatModel chatModel, ToolInvoker tools) {
        ToolRegistry registry = ToolCatalogue.registry().offeredOn(ToolDefinition.Audience.AGENT);
        return new AgentLoop(chatModel, registry, InternalTool.standard(registry, tools), tools, UserInputPort.NONE,
                TurnLimits.DEFAULT, Clock.systemUTC());
    }

    /** A three-step turn: find a tool, run an operation on the 22-column config, answer. */
    static void overhead(ChatFunction function, ScriptedModelServer model, String config, int warmup, int turns) throws Exception {
        long[] turn = new long[turns];
        long[] modelTime = new long[turns];
        long[] overhead = new long[turns];
        for (int i = -warmup; i < turns; i++) {
            model.enqueue(ModelScript.builder()
                    .turn(t -> t.toolCall("call_s", "search_tools", "{\"query\":\"sort rows\"}"))
                    .turn(t -> t.toolCall("call_f", "apply_filter_change",
                            "{\"operation\":\"add\",\"filter\":{\"column\":\"status\",", "\"operator\":\"eq\",\"value\":\"open\"}}"))
                    .turn(t -> t.text("Added ", "a filter ", "on status: ", "open orders only."))
                    .build());
            int before = model.requests().size();
            InMemoryResponseStream response = new InMemoryResponseStream();
            long start = System.nanoTime();
            function.handle(event(body(config, "only open orders")), response);
            long elapsed = System.nanoTime() - start;
            List<RecordedRequest> requests = model.requests().subList(before, model.requests().size());
            if (requests.size() != 3 || !response.body().contains("\"finishReason\":\"stop\"")) {
                throw new IllegalStateException("unexpected turn: " + requests.size() + " model calls\n" + response.body());
            }
            long inModel = 0;
            for (RecordedRequest r : requests) {
                model.awaitAnswered(r.index(), Duration.ofSeconds(10)); // the server records its end just after the client read it
                inModel += r.answer().endedNanos() - r.receivedNanos();
            }
            if (i >= 0) {
                turn[i] = elapsed;
                modelTime[i] = inModel;
                overhead[i] = elapsed - inModel;
            }
        }
        System.out.println();
        System.out.println("Turn with 3 model calls and 2 tool calls (search_tools, apply_filter_change on a 22-column, 3-join config):");
        row("whole turn", turn);
        row("model server answering (3 calls)", modelTime);
        row("turn overhead (whole - model)", overhead);
        long[] perStep = Arrays.stream(overhead).map(o -> o / 3).toArray();
        row("turn overhead per model step", perStep);
    }

    /** Text-only answers: how long after the model's first token does the client get its first byte? */
    static void firstTokenToFirstByte(ChatFunction function, ScriptedModelServer model, String config, int warmup, int turns) throws Exception {
        long[] gap = new long[turns];
        long[] whole = new long[turns];
        long[] toServer = new long[turns];
        for (int i = -warmup; i < turns; i++) {
            model.enqueue(ModelScript.builder().turn(t -> t.text("Hello", " there,", " this is", " a short", " answer.")).build());
            InMemoryResponseStream response = new InMemoryResponseStream();
            long[] firstDelta = {0};
            response.onFlush(() -> {
                if (firstDelta[0] == 0 && response.body().contains("\"text-delta\"")) {
                    firstDelta[0] = System.nanoTime();
                }
            });
            long start = System.nanoTime();
            function.handle(event(body(config, "hello")), response);
            long end = System.nanoTime();
            RecordedRequest r = model.lastRequest();
            if (i >= 0) {
                gap[i] = firstDelta[0] - r.answer().contentNanos().get(0);
                whole[i] = end - start;
                toServer[i] = r.receivedNanos() - start;
            }
        }
        System.out.println();
        System.out.println("Model's first text token sent → client's first text-delta flushed:");
        row("first token → first byte", gap);
        row("text-only turn, whole", whole);
        row("turn start → model request read", toServer);
    }

    /** Tokens the model reads per request, and writes per change, ours against a one-shot approach (the model writes the whole config). */
    static void promptSize(ScriptedModelServer model, ChatFunction function, String config) throws Exception {
        Encoding enc = Encodings.newDefaultEncodingRegistry().getEncoding(EncodingType.O200K_BASE);
        model.enqueue(ModelScript.builder().say("ok").build());
        function.handle(event(body(config, "hello")), new InMemoryResponseStream());
        JsonNode sent = model.lastRequest().body();
        String system = RecordedRequest.contentText(sent.path("messages").get(0).path("content"));
        String tools = Json.write(sent.path("tools"));
        int ourSystem = enc.countTokens(system);
        int ourTools = enc.countTokens(tools);
        String ourChange = "{\"operation\":\"add\",\"filter\":{\"column\":\"status\",\"operator\":\"eq\",\"value\":\"open\"}}";
        String ourPreview = "{\"description\":\"Only open orders\"}";

        // The one-shot approach: the role block, the wire-format mapping and rules, the page's whole TableBuilderState in
        // the prompt, three core tools; the model then writes the whole Config as preview_table_config's argument.
        TableConfig parsed = ConfigJson.readWritten(config);
        String state = Json.write(BuilderStateMapping.toState(parsed));
        String oneShotSystem = ONE_SHOT_ROLE + "\n\n" + ONE_SHOT_GUIDANCE + "\n\nCurrent state (context.state):\n" + state;
        ArrayNode oneShotTools = Json.MAPPER.createArrayNode();
        for (String name : List.of(ConfigStoreToolDefinitions.GET_TABLE_CONFIG.name(), OperationToolDefinitions.DISCOVER_TABLE_REFERENCE.name(),
                DatabaseToolDefinitions.PREVIEW_TABLE_CONFIG.name())) {
            for (JsonNode t : sent.path("tools")) {
                if (name.equals(t.path("function").path("name").asText())) {
                    oneShotTools.add(t);
                }
            }
        }
        ObjectNode oneShotPreview = Json.object().put("description", "Only open orders");
        oneShotPreview.set("config", Json.parse(config));
        int theirSystem = enc.countTokens(oneShotSystem);
        int theirTools = enc.countTokens(Json.write(oneShotTools));
        System.out.println();
        System.out.println("Prompt size, tables context, the 22-column 3-join orders config (tokens, o200k_base):");
        System.out.printf("  %-58s %8s %8s%n", "", "ours", "one-shot");
        System.out.printf("  %-58s %8d %8d%n", "system prompt (role, playbooks/rules, state, fields)", ourSystem, theirSystem);
        System.out.printf("  %-58s %8d %8d%n", "tool schemas sent every request (" + sent.path("tools").size() + " vs 3 tools)", ourTools, theirTools);
        System.out.printf("  %-58s %8d %8d%n", "input per request", ourSystem + ourTools, theirSystem + theirTools);
        System.out.printf("  %-58s %8d %8d%n", "model output per change (operation + preview args / whole config)",
                enc.countTokens(ourChange) + enc.countTokens(ourPreview), enc.countTokens(Json.write(oneShotPreview)));
    }

    /**
     * A whole change, all requests counted: ours (operation tool, preview, answer: three model calls, each re-sending
     * the prompt, the tool schemas and the growing history) against the one-shot approach (preview with the whole
     * config, answer: two calls, the whole config written once and read back in the preview's result).
     */
    static void wholeChange(ScriptedModelServer model, ChatFunction function, String config) throws Exception {
        Encoding enc = Encodings.newDefaultEncodingRegistry().getEncoding(EncodingType.O200K_BASE);
        int before = model.requests().size();
        model.enqueue(ModelScript.builder()
                .turn(t -> t.toolCall("call_f", "apply_filter_change",
                        "{\"operation\":\"add\",\"filter\":{\"column\":\"status\",\"operator\":\"eq\",\"value\":\"open\"}}"))
                .turn(t -> t.toolCall("call_p", "preview_table_config", "{\"description\":\"Only open orders\"}"))
                .say("Preview ready: open orders only. Accept or reject it.")
                .build());
        function.handle(event(body(config, "only open orders")), new InMemoryResponseStream());
        List<RecordedRequest> ours = model.requests().subList(before, model.requests().size());
        long oursIn = 0;
        for (RecordedRequest r : ours) {
            oursIn += enc.countTokens(Json.write(r.body().path("messages"))) + enc.countTokens(Json.write(r.body().path("tools")));
        }
        long oursOut = enc.countTokens("{\"operation\":\"add\",\"filter\":{\"column\":\"status\",\"operator\":\"eq\",\"value\":\"open\"}}")
                + enc.countTokens("{\"description\":\"Only open orders\"}") + enc.countTokens("Preview ready: open orders only. Accept or reject it.");

        TableConfig parsed = ConfigJson.readWritten(config);
        String oneShotSystem = ONE_SHOT_ROLE + "\n\n" + ONE_SHOT_GUIDANCE + "\n\nCurrent state (context.state):\n"
                + Json.write(BuilderStateMapping.toState(parsed));
        ArrayNode tools = Json.MAPPER.createArrayNode();
        for (JsonNode t : ours.get(0).body().path("tools")) {
            if (List.of("get_table_config", "discover_table_reference", "preview_table_config").contains(t.path("function").path("name").asText())) {
                tools.add(t);
            }
        }
        ArrayNode messages = Json.MAPPER.createArrayNode();
        messages.addObject().put("role", "system").put("content", oneShotSystem);
        messages.addObject().put("role", "user").put("content", "only open orders");
        long oneShotIn = enc.countTokens(Json.write(messages)) + enc.countTokens(Json.write(tools));
        ObjectNode previewArgs = Json.object().put("description", "Only open orders");
        previewArgs.set("config", Json.parse(config));
        ObjectNode call = messages.addObject().put("role", "assistant");
        call.putArray("tool_calls").addObject().put("id", "call_p").putObject("function").put("name", "preview_table_config")
                .put("arguments", Json.write(previewArgs));
        ObjectNode result = previewOutput(Json.parse(config), "Only open orders");
        messages.addObject().put("role", "tool").put("tool_call_id", "call_p").put("content", Json.write(result));
        oneShotIn += enc.countTokens(Json.write(messages)) + enc.countTokens(Json.write(tools));
        long oneShotOut = enc.countTokens(Json.write(previewArgs)) + enc.countTokens("Preview ready: open orders only. Accept or reject it.");
        System.out.println();
        System.out.println("One whole change (\"only open orders\"), every request of the turn counted (tokens, o200k_base):");
        System.out.printf("  %-58s %8s %8s%n", "", "ours", "one-shot");
        System.out.printf("  %-58s %8d %8d%n", "model calls", ours.size(), 2);
        System.out.printf("  %-58s %8d %8d%n", "input tokens, all calls", oursIn, oneShotIn);
        System.out.printf("  %-58s %8d %8d%n", "output tokens, all calls", oursOut, oneShotOut);
    }

    /**
     * preview_table_config without a database: answers in the real tool's shape (valid, ids, description, config,
     * SQL, five sample rows) so the model reads as much as it would from the real one.
     */
    static final class OfflinePreview implements dev.tablewright.toolcontract.Tool {
        @Override
        public dev.tablewright.toolcontract.ToolDefinition definition() {
            return DatabaseToolDefinitions.PREVIEW_TABLE_CONFIG;
        }

        @Override
        public dev.tablewright.toolcontract.ToolOutcome execute(dev.tablewright.toolcontract.ToolInvocation invocation) {
            ObjectNode out = previewOutput(invocation.arguments().path("config"), invocation.arguments().path("description").asText(""));
            return dev.tablewright.toolcontract.ToolOutcome.ok(out, new dev.tablewright.toolcontract.ToolEffect.Previewed(
                    out.path("previewId").asText(), out.get("config")));
        }
    }

    static ObjectNode previewOutput(JsonNode config, String description) {
        ObjectNode out = Json.object().put("valid", true).put("previewId", "pv_0b9c1e").put("configId", "cfg_orders")
                .put("isUpdate", true).put("baseVersion", 3).put("description", description);
        out.set("config", config);
        out.put("sql", "SELECT o.\"id\", o.\"created_at\", o.\"status\", u.\"first_name\" AS \"creator_first_name\" FROM \"sales\".\"orders\" o "
                + "LEFT JOIN \"core\".\"users\" u ON o.\"created_by\" = u.\"id\" WHERE o.\"status\" = $1 ORDER BY o.\"created_at\" DESC LIMIT 6");
        ArrayNode rows = out.putArray("rows");
        for (int i = 1; i <= 5; i++) {
            rows.addObject().put("id", 1000 + i).put("created_at", "2026-11-0" + i + " 09:1" + i).put("status", "open")
                    .put("creator_first_name", "Ada");
        }
        out.put("more", true);
        out.putArray("warnings");
        return out;
    }

    static final String ONE_SHOT_ROLE = """
            You are the assistant of a table builder page. The user edits a table configuration and you help them change it. \
            The context holds the builder's current TableBuilderState. To change the table, produce the complete Config \
            in the wire format and call preview_table_config with it; the user accepts or rejects the preview.""";

    /** The one-shot approach's guidance: the two wire formats' mapping and its key rules, as a prompt would carry them. */
    static final String ONE_SHOT_GUIDANCE = """
            The LLM receives TableBuilderState but must output Config.
            | TableBuilderState field | Config wire format field |
            | baseTable.schema / .table | data_source[0].schema / data_source[0].source |
            | dataSources[] | data_source[0].select.foreign_tables[] (for joins) |
            | columns[].alias (or .column) | data_source[0].select.columns[].name |
            | columns[] (type, format, etc) | visual_settings.columns map, keyed by column name/alias |
            | filters[] | data_source[0].filters[] |
            | joins[] | data_source[0].select.foreign_tables[] (join shape) |
            | sortBy[] | data_source[0].sort[] |
            Rules: 1. every selected column has exactly one visual_settings.columns entry and every entry is selected. \
            2. ordering is all-or-nothing: if any visible column has an order, all do, distinct. 3. datetime and date \
            columns carry a format. 4. every filter and sort column is selected (add it hidden if needed). 5. operators \
            must suit the column's visual type. 6. joined tables need a unique alias, a join type and relationship ends \
            naming the base table or another alias; the same column from two tables needs an alias.""";

    static String fixture() throws Exception {
        try (InputStream in = ChatTurnBenchmark.class.getResourceAsStream("/fixtures/orders-config.json")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    static String body(String config, String text) throws Exception {
        ObjectNode b = Json.object().put("id", "conv_bench").put("trigger", "submit-message");
        b.putArray("messages").addObject().put("id", "u_1").put("role", "user").putArray("parts").addObject()
                .put("type", "text").put("text", text);
        b.putObject("context").put("page", "tables").put("configId", "cfg_orders").set("config", Json.parse(config));
        return Json.write(b);
    }

    static JsonNode event(String body) {
        ObjectNode event = Json.object().put("body", body).put("isBase64Encoded", false);
        event.putObject("requestContext").put("requestId", "bench");
        return event;
    }

    static void row(String what, long[] nanos) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        System.out.printf("  %-40s p50 %8.3f ms   p90 %8.3f ms   p99 %8.3f ms   mean %8.3f ms%n", what,
                ms(pct(sorted, 50)), ms(pct(sorted, 90)), ms(pct(sorted, 99)), ms((long) Arrays.stream(sorted).average().orElse(0)));
    }

    static long pct(long[] sorted, int p) {
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(p / 100.0 * sorted.length) - 1)];
    }

    static double ms(long nanos) {
        return nanos / 1e6;
    }

    static int intArg(String[] args, String name, int fallback) {
        List<String> list = new ArrayList<>(Arrays.asList(args));
        int i = list.indexOf(name);
        return i >= 0 && i + 1 < list.size() ? Integer.parseInt(list.get(i + 1)) : fallback;
    }
}
