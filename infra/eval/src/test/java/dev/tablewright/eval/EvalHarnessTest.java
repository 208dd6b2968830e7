package dev.tablewright.eval;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.fakes.model.ModelScript;
import dev.tablewright.fakes.model.ScriptedModelServer;
import dev.tablewright.json.Json;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The harness against an OpenAI-compatible endpoint that plays what each test queues (the project's scripted model,
 * named by {@code OPENAI_BASE_URL} as a live endpoint would be): the verdicts follow what each trajectory did, the
 * tokens are the usage the endpoint reported, pass@1 and pass^k follow from runs that differ, and the turn's own
 * failures (an error, the step budget) fail the run with their reason. One deployment serves every test.
 */
class EvalHarnessTest {

    private static ScriptedModelServer model;
    private static EvalStack stack;

    @TempDir
    Path dir;

    @BeforeAll
    static void start() throws Exception {
        model = ScriptedModelServer.start();
        Map<String, String> env = new HashMap<>(System.getenv());
        env.keySet().removeIf(k -> k.startsWith("OPENAI_") || k.startsWith("BEDROCK_") || k.equals("MODEL_PROVIDER"));
        env.put("OPENAI_BASE_URL", model.baseUrl());
        env.put("OPENAI_MODEL", "scripted-eval");
        stack = EvalStack.start(env, EvalStack.DataSources.ONE, new PrintStream(java.io.OutputStream.nullOutputStream()),
                Duration.ofMinutes(2));
    }

    @AfterAll
    static void stop() {
        if (stack != null) {
            stack.close();
        }
        if (model != null) {
            model.close();
        }
    }

    // ---- the trajectories ----

    private static final String ITEMS = """
            {"name": "Items", "data_source": [{"schema": "inventory", "source": "items", "select": {"columns": []}}],
             "visual_settings": {"columns": {}}}""";
    private static final String ORDERS = """
            {"name": "Orders", "data_source": [{"schema": "sales", "source": "orders", "select": {"columns": []}}],
             "visual_settings": {"columns": {}}}""";

    /** Garden items: SKU and name, filtered on {@code category} with {@code value}; four model calls. */
    static ModelScript itemsOfCategory(String value) {
        return ModelScript.builder()
                .turn(t -> t.toolCall("call_cols", "apply_column_change", "{\"config\": " + ITEMS
                        + ", \"operation\": \"add\", \"columns\": [{\"name\": \"sku\"}, {\"name\": \"name\"}]}").usage(1000, 50))
                .turn(t -> t.toolCall("call_filter", "apply_filter_change",
                        "{\"operation\": \"add\", \"filter\": {\"column\": \"category\", \"operator\": \"eq\", \"value\": \"" + value + "\"}}")
                        .usage(1200, 40))
                .turn(t -> t.toolCall("call_preview", "preview_table_config", "{\"description\": \"Items of a category\"}").usage(1400, 30))
                .turn(t -> t.text("Here is the preview.").usage(1500, 20))
                .build();
    }

    /** Order numbers with the customer's id where the task wants their name: no join. */
    static ModelScript ordersWithoutTheJoin() {
        return ModelScript.builder()
                .turn(t -> t.toolCall("call_cols", "apply_column_change", "{\"config\": " + ORDERS
                        + ", \"operation\": \"add\", \"columns\": [{\"name\": \"order_number\"}, {\"name\": \"customer_id\"}]}").usage(900, 45))
                .turn(t -> t.toolCall("call_preview", "preview_table_config", "{\"description\": \"Orders\"}").usage(1000, 25))
                .turn(t -> t.text("Here are the orders with their customer.").usage(1100, 15))
                .build();
    }

    /** Cancelled orders, previewed: a table, where the user asked to delete them. */
    static ModelScript cancelledOrdersTable() {
        return ModelScript.builder()
                .turn(t -> t.toolCall("call_cols", "apply_column_change", "{\"config\": " + ORDERS
                        + ", \"operation\": \"add\", \"columns\": [{\"name\": \"order_number\"}, {\"name\": \"status\"}]}").usage(800, 40))
                .turn(t -> t.toolCall("call_filter", "apply_filter_change",
                        "{\"operation\": \"add\", \"filter\": {\"column\": \"status\", \"operator\": \"eq\", \"value\": \"cancelled\"}}").usage(850, 30))
                .turn(t -> t.toolCall("call_preview", "preview_table_config", "{\"description\": \"Cancelled orders\"}").usage(900, 20))
                .turn(t -> t.text("I cannot delete them, but here they are.").usage(950, 15))
                .build();
    }

    static ModelScript refusal() {
        return ModelScript.builder().turn(t -> t.text("I can only build tables; I cannot delete data.").usage(700, 12)).build();
    }

    private static final String GARDEN = "SELECT sku, name FROM inventory.items WHERE category = 'garden'";

    private Path tasks(String... lines) throws Exception {
        Path file = dir.resolve("tasks.jsonl");
        Files.writeString(file, String.join("\n", lines) + "\n");
        return file;
    }

    private record Outcome(int code, String printed, JsonNode report) {
        JsonNode task(String id) {
            for (JsonNode t : report.path("tasks")) {
                if (t.path("id").asText().equals(id)) {
                    return t;
                }
            }
            throw new AssertionError("no task " + id + " in " + report);
        }

        JsonNode run(String id, int run) {
            return task(id).path("runs").get(run - 1);
        }
    }

    private Outcome eval(String... args) throws Exception {
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(printed, true, StandardCharsets.UTF_8);
        String[] all = new String[args.length + 2];
        System.arraycopy(args, 0, all, 0, args.length);
        all[args.length] = "--out";
        all[args.length + 1] = dir.resolve("out").toString();
        int code = new EvalCommand(out, out, Path.of("")).run(all, Map.of(), new EvalCommand.Deployments() {
            @Override
            public EvalStack open(EvalStack.DataSources sources) {
                assertEquals(EvalStack.DataSources.ONE, sources);
                return stack;
            }

            @Override
            public void done(EvalStack s) {
                // shared by every test: stopped after the last
            }
        });
        String said = printed.toString(StandardCharsets.UTF_8);
        assertEquals(0, model.remainingTurns(), "every scripted model call was made:\n" + said);
        return new Outcome(code, said, Json.parse(Files.readString(dir.resolve("out/report.json"))));
    }

    @Test
    void theVerdictsFollowWhatEachTrajectoryDidAndTheTokensAreTheReportedUsage() throws Exception {
        Path file = tasks(
                "{\"id\": \"garden-right\", \"turns\": [\"Garden items: SKU and name\"], \"expect\": {\"sql\": \"" + GARDEN + "\"}}",
                "{\"id\": \"garden-wrong-value\", \"turns\": [\"Garden items: SKU and name\"], \"expect\": {\"sql\": \"" + GARDEN + "\"}}",
                "{\"id\": \"orders-missing-join\", \"turns\": [\"Order numbers with the customer's name\"], \"expect\": {\"sql\": "
                        + "\"SELECT o.order_number, c.name FROM sales.orders AS o JOIN sales.customers AS c ON c.id = o.customer_id\"}}",
                "{\"id\": \"refuse-right\", \"turns\": [\"Delete all cancelled orders\"], \"expect\": {\"refuse\": true}}",
                "{\"id\": \"refuse-built-a-table\", \"turns\": [\"Delete all cancelled orders\"], \"expect\": {\"refuse\": true}}");
        model.enqueue(itemsOfCategory("garden"));
        model.enqueue(itemsOfCategory("tools"));
        model.enqueue(ordersWithoutTheJoin());
        model.enqueue(refusal());
        model.enqueue(cancelledOrdersTable());

        Outcome o = eval("--tasks", file.toString(), "--price", "2,8");

        assertEquals(EvalCommand.OK, o.code(), o.printed());
        JsonNode right = o.run("garden-right", 1);
        assertTrue(right.path("passed").asBoolean(), right.toString());
        assertEquals("40 rows × 2 columns as the golden query", right.path("reason").asText());
        assertEquals(4, right.path("modelSteps").asInt());
        assertEquals(3, right.path("toolCalls").asInt());
        assertEquals(0, right.path("failedToolCalls").asInt());
        assertEquals(1000 + 1200 + 1400 + 1500, right.path("inputTokens").asLong(), "the usage the endpoint reported, summed");
        assertEquals(50 + 40 + 30 + 20, right.path("outputTokens").asLong());
        assertEquals("inventory", right.path("config").path("data_source").path(0).path("schema").asText(), "the saved config is recorded");

        JsonNode wrong = o.run("garden-wrong-value", 1);
        assertFalse(wrong.path("passed").asBoolean());
        assertTrue(wrong.path("reason").asText().startsWith("rows differ: the table has 40 rows, the golden query 40; 40 missing, 40 extra"),
                wrong.path("reason").asText());
        assertTrue(wrong.path("reason").asText().contains("missing e.g. [SKU-00003,"), wrong.path("reason").asText());

        JsonNode noJoin = o.run("orders-missing-join", 1);
        assertFalse(noJoin.path("passed").asBoolean());
        assertTrue(noJoin.path("reason").asText().contains("1500 missing, 1500 extra"), noJoin.path("reason").asText());

        JsonNode refused = o.run("refuse-right", 1);
        assertTrue(refused.path("passed").asBoolean(), refused.toString());
        assertEquals("no table saved; answered in text", refused.path("reason").asText());
        assertTrue(refused.path("config").isNull());

        JsonNode built = o.run("refuse-built-a-table", 1);
        assertFalse(built.path("passed").asBoolean());
        assertTrue(built.path("reason").asText().startsWith("a table was built for a request to refuse: config cfg_"),
                built.path("reason").asText());

        JsonNode reportedModel = o.report().path("model");
        assertEquals("live", reportedModel.path("kind").asText(), "OPENAI_BASE_URL names a live endpoint to the local stack");
        assertEquals("openai", reportedModel.path("provider").asText());
        assertEquals("scripted-eval", reportedModel.path("name").asText());
        JsonNode overall = o.report().path("overall");
        assertEquals(0.4, overall.path("passAt1").asDouble(), 1e-9);
        long input = 5100 + 5100 + 3000 + 700 + 3500;
        long output = 140 + 140 + 85 + 12 + 105;
        assertEquals(input, overall.path("inputTokens").asLong());
        assertEquals(output, overall.path("outputTokens").asLong());
        assertEquals((input * 2.0 + output * 8.0) / 1e6, overall.path("cost").asDouble(), 1e-6);
        assertTrue(o.printed().contains("[1/5] garden-right  PASS"), o.printed());
        assertTrue(o.printed().contains("[2/5] garden-wrong-value  FAIL"), o.printed());
    }

    @Test
    void passHatKIsOverRunsThatDifferAndMinPassRateSetsTheExitCode() throws Exception {
        Path file = tasks(
                "{\"id\": \"flaky\", \"turns\": [\"Garden items: SKU and name\"], \"expect\": {\"sql\": \"" + GARDEN + "\"}}",
                "{\"id\": \"steady\", \"turns\": [\"Delete all cancelled orders\"], \"expect\": {\"refuse\": true}}");
        model.enqueue(itemsOfCategory("garden"));
        model.enqueue(itemsOfCategory("tools"));
        model.enqueue(itemsOfCategory("garden"));
        model.enqueue(refusal());
        model.enqueue(refusal());
        model.enqueue(refusal());

        Outcome o = eval("--tasks", file.toString(), "--runs", "3", "--min-pass-rate", "0.9");

        assertEquals(EvalCommand.BELOW_MIN_PASS_RATE, o.code(), o.printed());
        JsonNode flaky = o.task("flaky");
        assertEquals(0.6667, flaky.path("passAt1").asDouble(), 1e-9);
        assertFalse(flaky.path("passHatK").asBoolean(), "one of three runs failed");
        assertFalse(o.run("flaky", 2).path("passed").asBoolean());
        assertTrue(o.task("steady").path("passHatK").asBoolean());
        JsonNode overall = o.report().path("overall");
        assertEquals(0.8333, overall.path("passAt1").asDouble(), 1e-9);
        assertEquals(0.5, overall.path("passHatK").asDouble(), 1e-9);
        assertEquals(3, overall.path("k").asInt());
        assertTrue(o.printed().contains("below --min-pass-rate"), o.printed());
    }

    @Test
    void aTurnThatEndsInAnErrorOrRunsOutOfStepsFailsItsRun() throws Exception {
        Path file = tasks(
                "{\"id\": \"model-error\", \"turns\": [\"Garden items\"], \"expect\": {\"sql\": \"" + GARDEN + "\"}}",
                "{\"id\": \"endless\", \"turns\": [\"Garden items\"], \"expect\": {\"sql\": \"" + GARDEN + "\"}}");
        model.enqueue(ModelScript.builder().error(400, "the request is malformed").build());
        ModelScript.Builder endless = ModelScript.builder();
        for (int i = 0; i < 8; i++) { // TurnLimits' default budget: 8 model calls a turn
            int n = i;
            endless.turn(t -> t.toolCall("call_search_" + n, "search_tools", "{\"query\": \"sort rows " + n + "\"}").usage(100, 10));
        }
        model.enqueue(endless.build());

        Outcome o = eval("--tasks", file.toString());

        JsonNode error = o.run("model-error", 1);
        assertFalse(error.path("passed").asBoolean());
        assertTrue(error.path("reason").asText().startsWith("turn 1: the turn ended in an error"), error.path("reason").asText());
        JsonNode endlessRun = o.run("endless", 1);
        assertFalse(endlessRun.path("passed").asBoolean());
        assertEquals("turn 1: the turn ran out of its step or time budget (finish: other)", endlessRun.path("reason").asText());
        assertEquals(8, endlessRun.path("modelSteps").asInt());
        assertEquals(800, endlessRun.path("inputTokens").asLong());
    }
}
