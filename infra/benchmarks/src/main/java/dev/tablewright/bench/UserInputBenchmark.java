package dev.tablewright.bench;

import dev.tablewright.lambda.HttpApiEvent;
import dev.tablewright.functions.userinput.ListInputRequestsFunction;
import dev.tablewright.functions.userinput.SubmitInputResponseFunction;
import dev.tablewright.functions.userinput.UserInputFunction;
import dev.tablewright.fakes.dynamodb.DynamoDbLocalLauncher;
import dev.tablewright.fakes.dynamodb.TemplateTables;
import dev.tablewright.fakes.runtime.FunctionSpec;
import dev.tablewright.json.Json;
import dev.tablewright.lambda.HttpApiEventBuilder;
import dev.tablewright.lambda.HttpApiFunction;
import dev.tablewright.toolcontract.FieldType;
import dev.tablewright.toolcontract.InputField;
import dev.tablewright.userinput.InputRequestService;
import dev.tablewright.userinput.NewInputRequest;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * Warm handler latency of submit and get-pending against DynamoDB Local (in-process handlers, real HTTP to the
 * engine through the SDK's url-connection client), then the cold start of {@code ListInputRequestsFunction} through
 * the Runtime API emulator ({@link ColdStart}).
 *
 * <pre>infra/bin/user-input-bench [--iterations N] [--cold-runs N]</pre>
 *
 * A measurement, not a test: figures go to docs/performance.md with the command that produced them.
 */
public final class UserInputBenchmark {

    private static final String OWNER = "dev-user";
    private static final String SUBMIT_BODY = "{\"values\": {\"database\": \"staging\", \"account_id\": \"12345678\", \"api_key\": \"k\"}}";

    public static void main(String[] args) throws Exception {
        int iterations = 2000;
        int coldRuns = 5;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--iterations" -> iterations = Integer.parseInt(args[++i]);
                case "--cold-runs" -> coldRuns = Integer.parseInt(args[++i]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        try (DynamoDbLocalLauncher dynamo = DynamoDbLocalLauncher.start()) {
            DynamoDbClient client = dynamo.client();
            TemplateTables.Created tables = TemplateTables.fromTemplate().createAll(client, "bench-");
            String table = tables.tableName("UserInputTable");
            InputRequestService service = UserInputFunction.service(client, table, InputRequestService.Expiry.DEFAULT, Clock.systemUTC());

            // get pending: a conversation with 3 pending requests and 2 answered ones
            for (int i = 0; i < 5; i++) {
                service.create(OWNER, "conv-bench", form("call_" + i));
                if (i >= 3) {
                    service.submit(OWNER, "conv-bench", "call_" + i, Json.parse(SUBMIT_BODY).get("values"));
                }
            }
            HttpApiFunction list = new ListInputRequestsFunction(service);
            HttpApiEvent listEvent = HttpApiEventBuilder.route("GET /conversations/{conversationId}/input-requests",
                    "/conversations/conv-bench/input-requests").query("status", "pending").build();
            report("get pending (3 of 5 requests pending)", measure(iterations, n -> listEvent, list, null));

            // submit: each iteration answers a fresh pending request (created untimed)
            HttpApiFunction submit = new SubmitInputResponseFunction(service);
            report("submit (3 fields, saved for the conversation: one TransactWriteItems)", measure(iterations, n -> {
                String call = "submit_" + n;
                service.create(OWNER, "conv-submit", form(call));
                return HttpApiEventBuilder.route("POST /conversations/{conversationId}/input-requests/{toolCallId}/response",
                        "/conversations/conv-submit/input-requests/" + call + "/response").body(SUBMIT_BODY).build();
            }, submit, 200));

            coldStart(dynamo, table, coldRuns);
        }
    }

    private static NewInputRequest form(String toolCallId) {
        return new NewInputRequest("run_report", toolCallId, "Which database?", List.of(
                new InputField("database", "Database", null, FieldType.SELECT, true, null, null, null, null, List.of("production", "staging"), null),
                new InputField("account_id", "Account", null, FieldType.TEXT, true, "^[0-9]{6,12}$", null, null, null, null, null),
                new InputField("api_key", "API key", null, FieldType.SECRET, true, null, null, null, null, null, null)), true, null);
    }

    /** Runs the handler {@code iterations} times after as many warm-up calls; returns the timed calls in µs. */
    private static double[] measure(int iterations, IntFunction<HttpApiEvent> events, HttpApiFunction function, Integer expected) {
        for (int i = 0; i < iterations; i++) {
            check(function.respond(events.apply(-1 - i), null).status(), expected);
        }
        double[] micros = new double[iterations];
        for (int i = 0; i < iterations; i++) {
            HttpApiEvent event = events.apply(i);
            long start = System.nanoTime();
            int status = function.respond(event, null).status();
            micros[i] = (System.nanoTime() - start) / 1e3;
            check(status, expected);
        }
        return micros;
    }

    private static void check(int status, Integer expected) {
        if (status != (expected == null ? 200 : expected)) {
            throw new IllegalStateException("unexpected status " + status);
        }
    }

    private static void report(String what, double[] micros) {
        double[] sorted = micros.clone();
        Arrays.sort(sorted);
        System.out.printf(Locale.ROOT, "%s: n=%d p50 %.2f ms, p90 %.2f ms, p99 %.2f ms, mean %.2f ms%n", what, sorted.length,
                pct(sorted, 50) / 1e3, pct(sorted, 90) / 1e3, pct(sorted, 99) / 1e3, Arrays.stream(sorted).average().orElse(0) / 1e3);
    }

    private static double pct(double[] sorted, int p) {
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(p / 100.0 * sorted.length) - 1)];
    }

    private static void coldStart(DynamoDbLocalLauncher dynamo, String table, int runs) throws Exception {
        FunctionSpec spec = FunctionSpec.fromTemplate("ListInputRequestsFunction");
        if (!spec.artifactExists()) {
            System.out.println("cold start skipped: " + spec.artifact() + " is missing (mvn -B -q -pl functions/user-input -am package -DskipTests)");
            return;
        }
        Path event = Path.of(dev.tablewright.fakes.template.SamTemplate.locate().getParent().toString(), "infra", "events", "list-input-requests.json");
        byte[] body = Files.readAllBytes(event);
        Map<String, String> env = Map.of("USER_INPUT_TABLE", table, "DYNAMODB_ENDPOINT", dynamo.endpoint().toString());
        ColdStart.measure(spec, body, env); // unpacks the jar and warms the file cache; not counted
        List<ColdStart.Run> results = new ArrayList<>();
        for (int i = 0; i < runs; i++) {
            results.add(ColdStart.measure(spec, body, env));
        }
        System.out.printf(Locale.ROOT, "ListInputRequestsFunction cold start (%d MB, %d runs): median %.0f ms (init %.0f ms), second invocation %.1f ms; jar %.1f MB%n",
                spec.memoryMb(), runs,
                ColdStart.median(results.stream().mapToDouble(ColdStart.Run::coldMillis).toArray()),
                ColdStart.median(results.stream().mapToDouble(ColdStart.Run::initMillis).toArray()),
                ColdStart.median(results.stream().mapToDouble(ColdStart.Run::secondMillis).toArray()),
                Files.size(spec.artifact()) / (1024.0 * 1024.0));
    }
}
