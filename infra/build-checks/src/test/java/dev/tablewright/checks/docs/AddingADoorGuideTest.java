package dev.tablewright.checks.docs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.agent.AgentLoop;
import dev.tablewright.agent.InternalTool;
import dev.tablewright.agent.TurnLimits;
import dev.tablewright.agent.model.FinishReason;
import dev.tablewright.agent.model.ModelStep;
import dev.tablewright.agent.model.TokenUsage;
import dev.tablewright.agent.model.ToolCallRequest;
import dev.tablewright.agent.testing.ScriptedChatModel;
import dev.tablewright.agent.toolcall.ToolInvoker;
import dev.tablewright.agent.toolcall.UserInputPort;
import dev.tablewright.toolassembly.DoorStores;
import dev.tablewright.toolassembly.ToolAssembly;
import dev.tablewright.catalogue.ToolCatalogue;
import dev.tablewright.checks.docs.door.JsonLinesDoor;
import dev.tablewright.codec.ConfigJson;
import dev.tablewright.conversation.TurnStreamLog;
import dev.tablewright.door.DecisionLedger;
import dev.tablewright.door.FunctionUrlRequest;
import dev.tablewright.door.TurnStreams;
import dev.tablewright.dynamodb.DynamoTurnStreamLog;
import dev.tablewright.fakes.configs.SampleConfigs;
import dev.tablewright.fakes.dynamodb.DynamoDbLocalLauncher;
import dev.tablewright.fakes.dynamodb.TemplateTables;
import dev.tablewright.fakes.template.SamTemplate;
import dev.tablewright.http.stream.InMemoryResponseStream;
import dev.tablewright.json.Json;
import dev.tablewright.preview.PendingPreview;
import dev.tablewright.toolcontract.ToolDefinition;
import dev.tablewright.toolcontract.ToolEffect;
import dev.tablewright.toolcontract.ToolInvocation;
import dev.tablewright.toolcontract.ToolOutcome;
import dev.tablewright.toolcontract.ToolRegistry;
import dev.tablewright.fakes.concurrent.Poll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * docs/adding-a-door.md's example is real code: its Java block is {@code door/JsonLinesDoor.java} (from the class
 * comment on), which this module compiles; it imports nothing of the AI SDK's door or MCP's, and over the door kit and
 * DynamoDB Local it streams a turn, is read again by a second reader while it runs, is stopped from another request,
 * and keeps a preview through the kit's decision ledger, saved once however often the answer comes.
 */
class AddingADoorGuideTest {

    private static final Path ROOT = SamTemplate.locate().getParent();
    private static final Path DOOR = ROOT.resolve("infra/build-checks/src/test/java/dev/tablewright/checks/docs/door/JsonLinesDoor.java");
    private static final Pattern JAVA_BLOCK = Pattern.compile("```java\n(.*?)```", Pattern.DOTALL);
    private static final String OWNER = "user_door";
    /** A thread per request, as the function URL gives each its own (the common pool may have one thread here). */
    private static final ExecutorService THREADS = Executors.newVirtualThreadPerTaskExecutor();

    final ScriptedChatModel model = new ScriptedChatModel();
    DoorStores stores;
    TurnStreamLog log;
    JsonLinesDoor door;

    @BeforeEach
    void stack() {
        DynamoDbLocalLauncher dynamo = DynamoDbLocalLauncher.shared();
        Map<String, String> env = new java.util.LinkedHashMap<>(TemplateTables.fromTemplate()
                .createAll(dynamo.client(), "door" + System.nanoTime() + "-").environment());
        env.put("DYNAMODB_ENDPOINT", dynamo.endpoint().toString());
        env.put("TURN_STREAM_BATCH_MS", "20");
        env.put("TURN_STREAM_POLL_MS", "20");
        stores = ToolAssembly.fromEnvironment(env).doorStores();
        log = new DynamoTurnStreamLog(dynamo.client(), env.get("TURN_STREAMS_TABLE"), Duration.ofMinutes(5));
        ToolRegistry registry = ToolCatalogue.registry(List.of("default")).offeredOn(ToolDefinition.Audience.AGENT);
        ToolInvoker previews = new ToolInvoker() { // preview_table_config as its function answers: a pending preview, stored
            public ToolOutcome invoke(ToolInvocation call) {
                try {
                    PendingPreview preview = PendingPreview.create(call.userId(), call.conversationId(), null, null, "Stock",
                            ConfigJson.readWritten(Json.write(call.arguments().path("config"))), null, Instant.now(), Duration.ofHours(1));
                    stores.previews().save(preview);
                    return ToolOutcome.ok(Json.object().put("previewId", preview.previewId()),
                            new ToolEffect.Previewed(preview.previewId(), call.arguments().path("config")));
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }

            public boolean knows(String tool) {
                return tool.equals("preview_table_config");
            }
        };
        AgentLoop agent = new AgentLoop(model, registry, InternalTool.standard(registry, previews), previews, UserInputPort.NONE,
                TurnLimits.DEFAULT.withRetryBackoff(Duration.ofMillis(1)), Clock.systemUTC());
        TurnStreams streams = stores.turnStreams(Duration.ofMinutes(2));
        door = new JsonLinesDoor(agent, stores.conversations(), streams,
                DecisionLedger.of(stores.toolApprovals(), stores::previewDecisions));
    }

    @Test
    void theGuidesJavaBlockIsTheDoorAndItImportsNoOtherDoor() throws Exception {
        Matcher m = JAVA_BLOCK.matcher(Files.readString(ROOT.resolve("docs/adding-a-door.md")).replace("\r\n", "\n"));
        List<String> blocks = new ArrayList<>();
        while (m.find()) {
            blocks.add(m.group(1));
        }
        List<String> lines = Files.readAllLines(DOOR);
        int start = 0;
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).startsWith("package ") || lines.get(i).startsWith("import ")) {
                start = i + 1;
            }
        }
        while (lines.get(start).isBlank()) {
            start++;
        }
        assertEquals(List.of(String.join("\n", lines.subList(start, lines.size())) + "\n"), blocks,
                "docs/adding-a-door.md shows the door as it is in " + ROOT.relativize(DOOR) + " (after its imports)");
        assertTrue(lines.size() <= 300, "the example door is at most 300 lines: " + lines.size());
        assertTrue(lines.stream().noneMatch(l -> l.startsWith("import dev.tablewright.aisdk") || l.startsWith("import dev.tablewright.mcp")),
                "the example door imports nothing of the AI SDK's door or MCP's");
    }

    @Test
    void aTurnIsStreamedAndASecondReaderReadsItFromItsStartToItsEnd() throws Exception {
        CountDownLatch goOn = new CountDownLatch(1);
        model.steps.add(listener -> {
            listener.textDelta("Hello ");
            await(goOn);
            listener.textDelta("world.");
            return new ModelStep("Hello world.", List.of(), FinishReason.STOP, new TokenUsage(10, 2));
        });
        InMemoryResponseStream first = new InMemoryResponseStream();
        CompletableFuture<Void> turn = CompletableFuture.runAsync(() -> send(first, "POST", "/", "{\"conversationId\":\"c1\",\"id\":\"u1\",\"text\":\"hi\"}"), THREADS);
        until(() -> log.active(OWNER, "c1").isPresent() && first.body().contains("Hello"));
        assertEquals(List.of("u1"), stores.conversations().find(OWNER, "c1").orElseThrow().messages().stream()
                .map(mes -> mes.id()).toList(), "the question is stored before the turn runs (a page reloaded now shows it)");
        InMemoryResponseStream second = new InMemoryResponseStream();
        CompletableFuture<Void> reader = CompletableFuture.runAsync(() -> send(second, "GET", "/c1/stream", ""), THREADS);
        until(() -> second.body().contains("Hello"));
        goOn.countDown();
        turn.get(20, TimeUnit.SECONDS);
        reader.get(20, TimeUnit.SECONDS);

        assertEquals(200, second.statusCode());
        assertEquals("application/x-ndjson", second.headers().get("content-type"));
        assertEquals(first.body(), second.body(), "the second reader reads the turn as streamed, from its start to its end");
        List<JsonNode> lines = lines(first.body());
        assertEquals(List.of("start", "text", "text", "end"), lines.stream().map(l -> l.path("type").asText()).toList());
        assertEquals("completed", lines.getLast().path("reason").asText());
        assertEquals(List.of("u1", lines.getFirst().path("messageId").asText()), stores.conversations().find(OWNER, "c1")
                .orElseThrow().messages().stream().map(mes -> mes.id()).toList(), "the question and the answer, stored");
        InMemoryResponseStream after = new InMemoryResponseStream();
        send(after, "GET", "/c1/stream", "");
        assertEquals(204, after.statusCode(), "nothing runs any more");
    }

    @Test
    void aRunningTurnIsStoppedFromAnotherRequest() throws Exception {
        CountDownLatch cancelled = new CountDownLatch(1);
        model.steps.add(listener -> {
            model.requests.getLast().cancelHook().register(cancelled::countDown);
            listener.textDelta("Counting");
            await(cancelled);
            throw new IOException("the model's stream was cancelled");
        });
        InMemoryResponseStream first = new InMemoryResponseStream();
        CompletableFuture<Void> turn = CompletableFuture.runAsync(() -> send(first, "POST", "/", "{\"conversationId\":\"c2\",\"id\":\"u1\",\"text\":\"count\"}"), THREADS);
        until(() -> log.active(OWNER, "c2").isPresent() && first.body().contains("Counting"));
        InMemoryResponseStream stop = new InMemoryResponseStream();
        send(stop, "POST", "/c2/stop", "");
        assertEquals(204, stop.statusCode());
        turn.get(20, TimeUnit.SECONDS);
        assertEquals("user_stopped", lines(first.body()).getLast().path("reason").asText(), first.body());
    }

    @Test
    void aPreviewIsKeptThroughTheDecisionLedgerAndSavedOnce() throws Exception {
        String config = SampleConfigs.STOCK_COLUMNS_CHANGE.formatted(1);
        model.steps.add(listener -> {
            listener.toolCallStarted("call_p", "preview_table_config");
            String args = "{\"config\":" + Json.write(Json.parse(config).path("config")) + "}";
            listener.toolCallArgumentsDelta("call_p", args);
            return new ModelStep("", List.of(new ToolCallRequest("call_p", "preview_table_config", args)), FinishReason.TOOL_CALLS, new TokenUsage(10, 1));
        });
        model.steps.add(listener -> {
            listener.textDelta("Here is the preview.");
            return new ModelStep("Here is the preview.", List.of(), FinishReason.STOP, new TokenUsage(10, 1));
        });
        InMemoryResponseStream turn = new InMemoryResponseStream();
        send(turn, "POST", "/", "{\"conversationId\":\"c3\",\"id\":\"u1\",\"text\":\"preview it\"}");
        List<JsonNode> lines = lines(turn.body());
        JsonNode approve = lines.stream().filter(l -> l.path("type").asText().equals("approve")).findFirst().orElseThrow();
        assertEquals("paused", lines.getLast().path("reason").asText(), "the turn waits for the user's decision");
        ObjectNode answer = Json.object().put("approvalId", approve.path("approvalId").asText())
                .put("messageId", lines.getFirst().path("messageId").asText()).put("toolCallId", approve.path("toolCallId").asText())
                .put("approved", true);
        answer.putObject("input").put("previewId", approve.path("previewId").asText());
        String body = Json.write(Json.object().put("conversationId", "c3").set("answer", answer));

        InMemoryResponseStream decided = new InMemoryResponseStream();
        send(decided, "POST", "/", body);
        JsonNode first = lines(decided.body()).getFirst();
        assertTrue(first.path("now").asBoolean() && first.path("kept").asBoolean(), decided.body());
        InMemoryResponseStream again = new InMemoryResponseStream();
        send(again, "POST", "/", body);
        JsonNode repeated = lines(again.body()).getFirst();
        assertFalse(repeated.path("now").asBoolean(), "a repeated answer changes nothing: " + again.body());
        assertEquals(first.path("saved"), repeated.path("saved"), "it gets the first outcome again");
        String configId = first.path("saved").path("configId").asText();
        assertEquals(1, first.path("saved").path("version").asLong());
        assertEquals(1, configVersions(configId), "saved once");
    }

    private long configVersions(String configId) {
        return new dev.tablewright.dynamodb.DynamoConfigStore(DynamoDbLocalLauncher.shared().client(), stores.tables().configs())
                .versions(OWNER, configId, 10, null).items().size();
    }

    private void send(InMemoryResponseStream response, String method, String path, String body) {
        ObjectNode event = Json.object().put("rawPath", path).put("body", body);
        event.putObject("requestContext").putObject("http").put("method", method);
        door.handle(FunctionUrlRequest.of(event, "POST"), OWNER, response);
    }

    private static List<JsonNode> lines(String body) throws Exception {
        List<JsonNode> out = new ArrayList<>();
        for (String line : body.split("\n")) {
            if (!line.isBlank()) {
                out.add(Json.parse(line));
            }
        }
        return out;
    }

    private static void await(CountDownLatch latch) {
        try {
            assertTrue(latch.await(20, TimeUnit.SECONDS), "the test's signal never came");
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Waits for what another thread does (bounded): the stream log and the streams are written off this thread. */
    private static void until(BooleanSupplier condition) {
        Poll.until("the stream log and the streams written off this thread", Duration.ofSeconds(20), condition);
    }
}
