package dev.tablewright.bench;

import dev.tablewright.dynamodb.DynamoDbClients;
import dev.tablewright.fakes.dynamodb.DynamoDbLocalLauncher;
import dev.tablewright.fakes.dynamodb.TemplateTables;
import dev.tablewright.lambda.Priming;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What a function's first DynamoDB call costs a fresh JVM, with and without the SnapStart priming that
 * {@link DynamoDbClients} registers (run here directly, as it runs before a snapshot): the GetItem itself, after the
 * client was built. DynamoDB Local in this process, one child JVM per run.
 *
 * <pre>infra/bin/dynamodb-first-call [runs]</pre>
 */
public final class DynamoDbFirstCall {

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("--child")) {
            child(args.length > 1 && args[1].equals("--primed"));
            return;
        }
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 7;
        try (DynamoDbLocalLauncher dynamo = DynamoDbLocalLauncher.start()) {
            TemplateTables.Created tables = TemplateTables.fromTemplate().createAll(dynamo.client(), "");
            Map<String, String> env = Map.of("DYNAMODB_ENDPOINT", dynamo.endpoint().toString(), "AWS_REGION", "us-east-1",
                    "TABLE", tables.tableName("UserInputTable"));
            System.out.println("| first GetItem after the client is built (median of " + runs + ") | ms |");
            System.out.println("|---|---|");
            for (boolean primed : new boolean[]{false, true}) {
                List<Double> ms = new ArrayList<>();
                for (int i = 0; i < runs + 1; i++) {
                    double v = run(env, primed);
                    if (i > 0) { // the first run warms the OS file cache
                        ms.add(v);
                    }
                }
                ms.sort(null);
                System.out.printf(Locale.ROOT, "| %s | %.1f |%n", primed ? "primed before (SnapStart)" : "not primed", ms.get(ms.size() / 2));
            }
        }
    }

    private static double run(Map<String, String> env, boolean primed) throws Exception {
        List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"),
                "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"), DynamoDbFirstCall.class.getName(), "--child"));
        if (primed) {
            command.add("--primed");
        }
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().putAll(env);
        Process p = pb.start();
        p.getInputStream().transferTo(java.io.OutputStream.nullOutputStream());
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        if (p.waitFor() != 0) {
            throw new IllegalStateException("child failed: " + err);
        }
        String[] lines = err.split("\n");
        return Double.parseDouble(lines[lines.length - 1].trim());
    }

    private static void child(boolean primed) {
        DynamoDbClient client = DynamoDbClients.fromEnvironment(System.getenv());
        if (primed) {
            Priming.beforeSnapshot();
        }
        long start = System.nanoTime();
        client.getItem(b -> b.tableName(System.getenv("TABLE"))
                .key(Map.of("pk", AttributeValue.fromS("x"), "sk", AttributeValue.fromS("y"))));
        System.err.printf(Locale.ROOT, "%.1f%n", (System.nanoTime() - start) / 1e6);
    }
}
