package dev.tablewright.bench;

import dev.tablewright.localstack.local.ApiGatewayEvents;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.fakes.dynamodb.DynamoDbLocalLauncher;
import dev.tablewright.fakes.dynamodb.TemplateTables;
import dev.tablewright.localstack.local.LocalDatabase;
import dev.tablewright.fakes.runtime.FunctionSpec;
import dev.tablewright.fakes.template.HttpApiRoutes;
import dev.tablewright.fakes.template.SamTemplate;
import dev.tablewright.json.Json;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The cold start of every request/response function of template.yaml, each through the Runtime API emulator in
 * a fresh JVM ({@link ColdStart#measure}), with DynamoDB Local (tables from the template) and PostgreSQL (the
 * sample database) behind them, so the first answer is a real one: a tool answers its sample event from
 * {@code infra/events}, an HTTP API function a payload 2.0 event of its route as {@code dev-user}. Prints a
 * Markdown table (function, module, jar size, classes loaded, median cold start, median init, median second invocation).
 * The classes are counted in one more run with {@code -Xlog:class+load} (not timed): every class the JVM loads from
 * start through the first two invocations, the JDK's included.
 *
 * <pre>infra/bin/cold-starts [--runs N] [--only Prefix] [--java-options "-Xshare:off ..."]</pre>
 *
 * The streaming chat function is measured by {@code infra/bin/chat-stream-bench} (its runtime is not the RIC).
 */
public final class ColdStarts {

    public static void main(String[] args) throws Exception {
        int runs = 3;
        String only = null;
        String javaOptions = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--runs" -> runs = Integer.parseInt(args[++i]);
                case "--only" -> only = args[++i];
                case "--java-options" -> javaOptions = args[++i];
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        Path templateFile = SamTemplate.locate();
        Path root = templateFile.getParent();
        SamTemplate template = SamTemplate.load(templateFile);
        Map<String, HttpApiRoutes.Route> routeOf = new LinkedHashMap<>();
        HttpApiRoutes.of(template).forEach(r -> routeOf.putIfAbsent(r.functionId(), r));
        try (DynamoDbLocalLauncher dynamo = DynamoDbLocalLauncher.start();
             LocalDatabase database = LocalDatabase.resolve(System.getenv("DATABASE_URL"))) {
            TemplateTables.Created tables = new TemplateTables(template).createAll(dynamo.client(), "");
            Map<String, String> env = new LinkedHashMap<>(tables.environment());
            env.put("DYNAMODB_ENDPOINT", dynamo.endpoint().toString());
            env.put("DATABASE_URL", database.url().jdbcUrl());
            env.put("AWS_REGION", "us-east-1");
            env.put("AWS_ACCESS_KEY_ID", "local");
            env.put("AWS_SECRET_ACCESS_KEY", "local");
            if (javaOptions != null) {
                env.put("JAVA_TOOL_OPTIONS", javaOptions);
            }
            System.out.println("| function | module | jar MB | classes loaded | cold start ms (median) | init ms (median) | second invocation ms |");
            System.out.println("|---|---|---|---|---|---|---|");
            for (String id : template.resourcesOfType("AWS::Serverless::Function").keySet()) {
                if (!HttpApiRoutes.functionUrls(template).isEmpty() && HttpApiRoutes.functionUrls(template).containsKey(id)) {
                    continue;
                }
                if (only != null && !id.startsWith(only)) {
                    continue;
                }
                FunctionSpec spec = FunctionSpec.fromTemplate(id);
                byte[] event = event(root, id, routeOf.get(id));
                try {
                    ColdStart.measure(spec, event, env); // unpacks the jar once, warms the file cache
                    List<ColdStart.Run> results = new ArrayList<>();
                    for (int i = 0; i < runs; i++) {
                        results.add(ColdStart.measure(spec, event, env));
                    }
                    long classes = classesLoaded(spec, event, env);
                    System.out.printf(Locale.ROOT, "| `%s` | %s | %.1f | %d | %.0f | %.0f | %.1f |%n", id, spec.module(),
                            Files.size(spec.artifact()) / (1024.0 * 1024.0), classes,
                            ColdStart.median(results.stream().mapToDouble(ColdStart.Run::coldMillis).toArray()),
                            ColdStart.median(results.stream().mapToDouble(ColdStart.Run::initMillis).toArray()),
                            ColdStart.median(results.stream().mapToDouble(ColdStart.Run::secondMillis).toArray()));
                } catch (Exception e) {
                    System.err.println(id + " failed: " + e.getMessage());
                    System.out.printf(Locale.ROOT, "| `%s` | %s | | | failed: %s | | |%n", id, spec.module(),
                            String.valueOf(e.getMessage()).lines().findFirst().orElse(""));
                }
            }
        }
        System.exit(0); // DynamoDB Local leaves non-daemon threads behind
    }

    /** One untimed run with class loading logged to a file; the number of classes it names. */
    private static long classesLoaded(FunctionSpec spec, byte[] event, Map<String, String> env) throws Exception {
        Path log = Files.createTempFile("class-load", ".log");
        try {
            Map<String, String> logged = new LinkedHashMap<>(env);
            String options = env.getOrDefault("JAVA_TOOL_OPTIONS", spec.environment().getOrDefault("JAVA_TOOL_OPTIONS", ""));
            logged.put("JAVA_TOOL_OPTIONS", (options + " -Xlog:class+load=info:file=" + log).strip());
            ColdStart.measure(spec, event, logged);
            try (var lines = Files.lines(log)) {
                return lines.filter(line -> line.contains("source:")).count();
            }
        } finally {
            Files.deleteIfExists(log);
        }
    }

    private static byte[] event(Path root, String id, HttpApiRoutes.Route route) throws Exception {
        Path sample = root.resolve("infra/events").resolve(ColdStart.defaultEvent(id));
        if (route == null) {
            return Files.isRegularFile(sample) ? Files.readAllBytes(sample) : "{}".getBytes();
        }
        String path = route.path().replaceAll("\\{([^}+]+)\\+?}", "cold-start-$1");
        Map<String, String> params = new LinkedHashMap<>();
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\{([^}+]+)\\+?}").matcher(route.path());
        while (m.find()) {
            params.put(m.group(1), "cold-start-" + m.group(1));
        }
        ObjectNode event = ApiGatewayEvents.httpApi(route.method(), path, route.routeKey(), params, Map.of("sub", "dev-user"),
                Map.of("content-type", "application/json"), "{}");
        return Json.MAPPER.writeValueAsBytes(event);
    }
}
