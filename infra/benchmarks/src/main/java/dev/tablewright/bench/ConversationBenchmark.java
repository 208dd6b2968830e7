package dev.tablewright.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;
import dev.tablewright.agent.model.ModelMessage;
import dev.tablewright.door.TurnStreams;
import dev.tablewright.agent.conversation.ConversationMemory;
import dev.tablewright.aisdk.request.ChatRequestParser;
import dev.tablewright.aisdk.request.UiMessage;
import dev.tablewright.aisdk.request.UiMessageConverter;
import dev.tablewright.http.stream.InMemoryResponseStream;
import dev.tablewright.conversation.ConversationService;
import dev.tablewright.conversation.StoredConversation;
import dev.tablewright.dynamodb.DynamoConfigStore;
import dev.tablewright.dynamodb.DynamoConversationStore;
import dev.tablewright.dynamodb.DynamoDbInputRequestStore;
import dev.tablewright.dynamodb.DynamoPreviewStore;
import dev.tablewright.fakes.dynamodb.DynamoDbLocalLauncher;
import dev.tablewright.fakes.dynamodb.TemplateTables;
import dev.tablewright.fakes.model.ModelScript;
import dev.tablewright.fakes.model.RecordedRequest;
import dev.tablewright.fakes.model.ScriptedModelServer;
import dev.tablewright.fakes.template.SamTemplate;
import dev.tablewright.fakes.tools.InProcessToolInvoker;
import dev.tablewright.functions.chat.ChatFunction;
import dev.tablewright.json.Json;
import dev.tablewright.logging.StructuredLog;
import dev.tablewright.openai.ModelSettings;
import dev.tablewright.openai.OpenAiChatModel;
import dev.tablewright.tools.ApplyFilterChangeTool;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What storing conversations adds to a chat turn, against DynamoDB Local: the DynamoDB calls per turn, the warm
 * latency of a turn in the persistence form (only the new message; the server loads and stores the conversation)
 * against the same turn with no store, and the stored size of a long conversation.
 * {@code infra/bin/conversation-bench --turns 100}
 */
public final class ConversationBenchmark {

    public static void main(String[] args) throws Exception {
        int turns = ChatTurnBenchmark.intArg(args, "--turns", 100);
        StructuredLog.redirect(new PrintStream(new ByteArrayOutputStream()));
        String config = ChatTurnBenchmark.fixture();
        try (ScriptedModelServer model = ScriptedModelServer.start();
             DynamoDbLocalLauncher dynamo = DynamoDbLocalLauncher.start()) {
            Map<String, String> tables = new TemplateTables(SamTemplate.load(SamTemplate.locate())).createAll(dynamo.client(), "bench-").environment();
            Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
            DynamoDbClient counted = DynamoDbLocalLauncher.clientFor(dynamo.endpoint(), c -> c.addExecutionInterceptor(new ExecutionInterceptor() {
                        @Override
                        public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
                            calls.computeIfAbsent(attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME), k -> new AtomicInteger()).incrementAndGet();
                        }
                    }));
            DynamoConversationStore store = new DynamoConversationStore(counted, tables.get("CONVERSATIONS_TABLE"), Duration.ofDays(90));
            DynamoConfigStore configs = new DynamoConfigStore(counted, tables.get("CONFIGS_TABLE"));
            ConversationService service = new ConversationService(store,
                    new DynamoDbInputRequestStore(counted, tables.get("USER_INPUT_TABLE"), Duration.ofDays(7)),
                    new DynamoPreviewStore(counted, tables.get("PREVIEWS_TABLE")), configs, Clock.systemUTC());
            ConversationMemory memory = new ConversationMemory(store, service, configs, Clock.systemUTC());

            ChatFunction stored = function(model, memory);
            ChatFunction unstored = function(model, ConversationMemory.NONE);
            System.out.println("Conversation benchmark: " + turns + "-turn conversations; each turn = an operation tool, a preview"
                    + " (5 sample rows) and an answer, on the 22-column, 3-join orders config");

            // warm both paths up on throw-away conversations
            for (int i = 0; i < 30; i++) {
                turn(stored, model, "warm-" + i, config, true);
                turn(unstored, model, "warm-" + i, config, true);
            }
            long[] with = new long[turns];
            long[] without = new long[turns];
            Map<String, Integer> perTurn = new TreeMap<>();
            String conversation = "conv-bench-" + System.nanoTime();
            Encoding enc = Encodings.newDefaultEncodingRegistry().getEncoding(EncodingType.O200K_BASE);
            List<String> memoryRows = new ArrayList<>();
            for (int i = 0; i < turns; i++) {
                // what the model would have been sent replaying the whole UI history (before the agent kept its own memory)
                String whole = i == 0 ? null : wholeHistory(store, conversation);
                calls.clear();
                int before = model.requests().size();
                with[i] = turn(stored, model, conversation, config, i == 0);
                int n = i + 1;
                if (whole != null && (n == 5 || n == 10 || n == 40 || n == 100 || n == turns)) {
                    JsonNode sent = model.requests().get(before).body().path("messages");
                    String system = RecordedRequest.contentText(sent.get(0).path("content"));
                    String replayed = whole + "," + Json.write(sent.get(sent.size() - 1));
                    memoryRows.add(String.format("  turn %3d   sent %7d chars %6d tokens   whole history %7d chars %6d tokens   turn %.2f ms",
                            n, Json.write(sent).length(), enc.countTokens(Json.write(sent)),
                            system.length() + replayed.length(), enc.countTokens(system) + enc.countTokens(replayed), ChatTurnBenchmark.ms(with[i])));
                } else if (n == 1) {
                    JsonNode sent = model.requests().get(before).body().path("messages");
                    memoryRows.add(String.format("  turn %3d   sent %7d chars %6d tokens", n, Json.write(sent).length(), enc.countTokens(Json.write(sent))));
                }
                if (i == turns - 1) {
                    calls.forEach((op, count) -> perTurn.put(op, count.get()));
                }
                without[i] = turn(unstored, model, "conv-none", config, true);
            }
            System.out.println();
            System.out.println("Warm turn latency (scripted model, zero delays; in-process tools), over one growing conversation:");
            ChatTurnBenchmark.row("no store (whole page context)", without);
            ChatTurnBenchmark.row("stored (persistence form)", with);
            System.out.println("  first 10 turns vs last 10 (stored):   mean "
                    + String.format("%.3f ms vs %.3f ms", ChatTurnBenchmark.ms(mean(with, 0, 10)), ChatTurnBenchmark.ms(mean(with, turns - 10, turns))));
            System.out.println();
            System.out.println("The model's first request of a turn (messages; tokens o200k_base), against replaying the whole UI history:");
            memoryRows.forEach(System.out::println);
            System.out.println();
            System.out.println("DynamoDB calls of turn " + turns + " (one body part): " + perTurn);

            StoredConversation c = store.find("bench_user", conversation).orElseThrow();
            long json = c.messages().stream().mapToLong(m -> m.json().length()).sum();
            long gzipped = 0;
            int items = 0;
            for (Map<String, AttributeValue> item : dynamo.client().scan(b -> b.tableName(tables.get("CONVERSATIONS_TABLE"))).items()) {
                if (item.get("sk").s().startsWith("BODY#" + conversation + "#")) {
                    gzipped += item.get("body").b().asByteArray().length;
                    items++;
                }
            }
            System.out.println();
            System.out.printf("Stored size of the %d-turn conversation: %d messages, %.1f KB of message JSON, %.1f KB gzipped in %d body item(s)%n",
                    turns, c.messages().size(), json / 1024.0, gzipped / 1024.0, items);
        }
        System.exit(0); // DynamoDB Local leaves non-daemon threads behind
    }

    static ChatFunction function(ScriptedModelServer model, ConversationMemory memory) {
        OpenAiChatModel chatModel = new OpenAiChatModel(new ModelSettings(model.baseUrl(), "scripted-model", "not-needed", Duration.ofSeconds(30)));
        InProcessToolInvoker tools = new InProcessToolInvoker(List.of(new ApplyFilterChangeTool(), new ChatTurnBenchmark.OfflinePreview()));
        return new ChatFunction(ChatTurnBenchmark.agentLoop(chatModel, tools), memory, TurnStreams.NONE, event -> "bench_user", Optional::empty);
    }

    /** One turn; {@code withConfig}: the page sends the config (the first turn, or every turn without a store). */
    static long turn(ChatFunction function, ScriptedModelServer model, String conversation, String config, boolean withConfig) throws Exception {
        model.enqueue(ModelScript.builder()
                .turn(t -> t.toolCall("call_f", "apply_filter_change",
                        "{\"operation\":\"add\",\"filter\":{\"column\":\"status\",\"operator\":\"eq\",\"value\":\"open\"}}"))
                .turn(t -> t.toolCall("call_p", "preview_table_config", "{\"description\":\"Only open orders\"}"))
                .turn(t -> t.text("Here is the preview: ", "only open orders are shown now. ", "Accept it to save the change."))
                .build());
        ObjectNode body = Json.object().put("id", conversation).put("trigger", "submit-message");
        ObjectNode message = Json.object().put("id", "u_" + System.nanoTime()).put("role", "user");
        message.putArray("parts").addObject().put("type", "text").put("text", "only open orders please");
        if (withConfig) {
            body.putArray("messages").add(message);
            body.putObject("context").put("page", "tables").set("config", Json.parse(config));
        } else {
            body.set("message", message);
        }
        InMemoryResponseStream response = new InMemoryResponseStream();
        long start = System.nanoTime();
        function.handle(ChatTurnBenchmark.event(Json.write(body)), response);
        long elapsed = System.nanoTime() - start;
        if (!response.body().contains("\"finishReason\":\"stop\"")) {
            throw new IllegalStateException("unexpected turn:\n" + response.body());
        }
        return elapsed;
    }

    /** The stored history as the model messages it would be replayed as, without the system prompt (JSON, comma-joined). */
    private static String wholeHistory(DynamoConversationStore store, String conversation) throws Exception {
        StoredConversation c = store.find("bench_user", conversation).orElseThrow();
        List<UiMessage> messages = new ArrayList<>();
        ChatRequestParser parser = new ChatRequestParser();
        for (var m : c.messages()) {
            messages.add(parser.message(Json.objectLiteral(m.json()), "m"));
        }
        List<String> out = new ArrayList<>();
        for (ModelMessage m : new UiMessageConverter().convert(messages).messages()) {
            out.add(Json.write(Json.MAPPER.valueToTree(m)));
        }
        return String.join(",", out);
    }

    private static long mean(long[] values, int from, int to) {
        long sum = 0;
        for (int i = from; i < to; i++) {
            sum += values[i];
        }
        return sum / (to - from);
    }
}
