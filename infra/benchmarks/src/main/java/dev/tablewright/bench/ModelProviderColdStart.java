package dev.tablewright.bench;

import dev.tablewright.agent.model.ModelMessage;
import dev.tablewright.agent.model.ModelRequest;
import dev.tablewright.agent.model.ModelStreamListener;
import dev.tablewright.agent.model.ModelTool;
import dev.tablewright.agentassembly.ModelProvider;
import dev.tablewright.fakes.model.BedrockModelServer;
import dev.tablewright.fakes.model.ModelScript;
import dev.tablewright.fakes.model.ScriptedModelServer;
import dev.tablewright.json.Json;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;

/**
 * The model path's cold start per provider option, each run a fresh JVM on the chat function's shaded jar (plus the
 * SDK's Bedrock client and Netty for that option only): spawn → the first streamed token of one call against the
 * loopback stand-ins, and which classes each JVM loaded. Options:
 * <ul>
 *   <li>{@code openai}: {@code ModelProvider.OPENAI} (openai-java, OkHttp) against the scripted OpenAI-compatible server;</li>
 *   <li>{@code bedrock}: {@code ModelProvider.BEDROCK} (SigV4 signer over the JDK client, the SDK's eventstream
 *       codec, credentials from the default chain's environment provider) against the Bedrock stand-in;</li>
 *   <li>{@code bedrock-sdk-netty}: the SDK's {@code BedrockRuntimeAsyncClient} on {@code NettyNioAsyncHttpClient}
 *       (what the SDK needs for ConverseStream) against the same stand-in.</li>
 * </ul>
 * {@code openai-direct} builds {@code OpenAiChatModel} itself, without {@code ModelProvider}: the same path on a jar
 * from before the provider choice existed.
 * <pre>mvn -B -q package -DskipTests && infra/bin/cold-starts model-providers [runs] [chat jar] [option,option,...]</pre>
 */
public final class ModelProviderColdStart {

    private static final String MODEL_ID = "us.amazon.nova-pro-v1:0";

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("--child")) {
            if (args[1].equals("bedrock-sdk-netty")) {
                SdkChild.run(args[2]);
            } else if (args[1].equals("openai-direct")) {
                OpenAiChild.run(args[2]);
            } else {
                child(args[1]);
            }
            return;
        }
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 7;
        Path jar = args.length > 1 ? Path.of(args[1]) : chatJar();
        List<String> options = args.length > 2 ? List.of(args[2].split(",")) : List.of("openai", "bedrock", "bedrock-sdk-netty");
        List<String> sdkJars = Stream.of(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(e -> e.contains("/bedrockruntime/") || e.contains("/netty-nio-client/") || e.contains("/io/netty/"))
                .toList();
        long sdkBytes = 0;
        for (String e : sdkJars) {
            sdkBytes += Files.size(Path.of(e));
        }
        long bedrockBytes = 0;
        try (java.util.zip.ZipFile zip = new java.util.zip.ZipFile(jar.toFile())) {
            bedrockBytes = zip.stream().filter(e -> e.getName().startsWith("dev/tablewright/bedrock/")
                    || e.getName().startsWith("dev/tablewright/agentassembly/ModelProvider")).mapToLong(java.util.zip.ZipEntry::getCompressedSize).sum();
        }
        System.out.printf(Locale.ROOT, "chat function jar: %.2f MB (%s); Bedrock's own classes in it: %.1f KB compressed; "
                        + "bedrockruntime + netty-nio-client + Netty: %.2f MB more (%d jars)%n%n",
                Files.size(jar) / 1e6, jar.getFileName(), bedrockBytes / 1e3, sdkBytes / 1e6, sdkJars.size());

        try (ScriptedModelServer openai = ScriptedModelServer.start(); BedrockModelServer bedrock = BedrockModelServer.start()) {
            ModelScript answer = ModelScript.builder().turn(t -> t.text("Hello", " there.").usage(10, 2)).build();
            for (int i = 0; i < 3 * (runs + 1); i++) {
                openai.enqueue(answer);
                bedrock.enqueue(answer);
            }
            System.out.println("| option | spawn → first token, median of " + runs + " (min–max) ms | classes loaded | of them Bedrock's / OpenAI's / Netty's |");
            System.out.println("|---|---|---|---|");
            for (String option : options) {
                List<Double> ms = new ArrayList<>();
                String classes = "";
                for (int i = 0; i < runs + 1; i++) {
                    String endpoint = option.startsWith("openai") ? openai.baseUrl() : bedrock.endpoint();
                    Result r = run(jar, sdkJars, option, endpoint);
                    if (i > 0) { // the first run warms the OS file cache
                        ms.add(r.millis());
                        classes = r.classes();
                    }
                }
                ms.sort(null);
                System.out.printf(Locale.ROOT, "| %s | %.0f (%.0f–%.0f) | %s |%n", option, ms.get(ms.size() / 2), ms.getFirst(), ms.getLast(), classes);
            }
            if (!bedrock.violations().isEmpty()) {
                System.out.println("stand-in refused: " + bedrock.violations());
            }
        }
    }

    private record Result(double millis, String classes) {
    }

    private static Result run(Path jar, List<String> sdkJars, String option, String endpoint) throws Exception {
        List<String> cp = new ArrayList<>(List.of(ModelProviderColdStart.class.getProtectionDomain().getCodeSource().getLocation().getPath(),
                jar.toString()));
        if (option.equals("bedrock-sdk-netty")) {
            cp.addAll(sdkJars);
        }
        List<String> command = List.of(ProcessHandle.current().info().command().orElse("java"), "-XX:TieredStopAtLevel=1",
                "-Xlog:class+load=info:stdout:tags", "-cp", String.join(File.pathSeparator, cp),
                ModelProviderColdStart.class.getName(), "--child", option, endpoint);
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        Map<String, String> env = pb.environment();
        env.keySet().removeIf(k -> k.startsWith("AWS_") || k.startsWith("OPENAI_") || k.startsWith("BEDROCK_") || k.equals("MODEL_PROVIDER"));
        env.putAll(Map.of("AWS_REGION", "us-east-1", "AWS_ACCESS_KEY_ID", "AKIDCOLDSTART0000000", "AWS_SECRET_ACCESS_KEY", "cold-start-probe",
                "OPENAI_BASE_URL", endpoint, "OPENAI_API_KEY", "sk-not-a-key", "BEDROCK_ENDPOINT", endpoint, "BEDROCK_MODEL_ID", MODEL_ID,
                "MODEL_PROVIDER", option.equals("openai") ? "openai" : "bedrock"));
        long start = System.nanoTime();
        Process p = pb.start();
        double firstToken = -1;
        Map<String, Integer> counts = new LinkedHashMap<>(Map.of("all", 0, "bedrock", 0, "openai", 0, "netty", 0));
        StringBuilder rest = new StringBuilder();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = out.readLine()) != null) {
                if (line.equals("first-token") && firstToken < 0) {
                    firstToken = (System.nanoTime() - start) / 1e6;
                } else if (line.startsWith("[class,load]")) {
                    counts.merge("all", 1, Integer::sum);
                    if (line.contains(" dev.tablewright.bedrock.") || line.contains(" software.amazon.awssdk.services.bedrockruntime.")) {
                        counts.merge("bedrock", 1, Integer::sum);
                    } else if (line.contains(" com.openai.") || line.contains(" dev.tablewright.openai.")) {
                        counts.merge("openai", 1, Integer::sum);
                    } else if (line.contains(" io.netty.")) {
                        counts.merge("netty", 1, Integer::sum);
                    }
                } else {
                    rest.append(line).append('\n');
                }
            }
        }
        if (p.waitFor() != 0 || firstToken < 0) {
            throw new IllegalStateException(option + " failed:\n" + rest);
        }
        return new Result(firstToken, counts.get("all") + " | " + counts.get("bedrock") + " / " + counts.get("openai") + " / " + counts.get("netty"));
    }

    private static Path chatJar() throws Exception {
        Path target = Path.of("functions/chat-turn/target");
        try (Stream<Path> files = Files.list(target)) {
            return files.filter(f -> f.getFileName().toString().endsWith("-lambda.jar")).findFirst()
                    .orElseThrow(() -> new IllegalStateException("build the chat function first: mvn -B -q package -DskipTests"));
        }
    }

    /** The function's own path: the provider from the environment, as ChatFunction picks it, and one streamed call. */
    private static void child(String option) throws Exception {
        Map<String, String> env = System.getenv();
        ModelProvider.fromEnvironment(env).model(env).stream(oneCall(), new FirstTokenPrinter());
    }

    /** The OpenAI model built directly, as ChatFunction did before MODEL_PROVIDER. */
    static final class OpenAiChild {
        static void run(String baseUrl) throws Exception {
            new dev.tablewright.openai.OpenAiChatModel(new dev.tablewright.openai.ModelSettings(baseUrl, "gpt-4o-mini", "sk-not-a-key",
                    java.time.Duration.ofSeconds(30))).stream(oneCall(), new FirstTokenPrinter());
        }
    }

    /** The one request every child makes: a system prompt, a question, one tool. */
    private static ModelRequest oneCall() {
        return new ModelRequest(List.of(new ModelMessage.System("You edit table configs."), new ModelMessage.User("hello")),
                List.of(new ModelTool("apply_column_change", "Change a column", Json.object().put("type", "object"))),
                256, Instant.now().plusSeconds(30), null);
    }

    /** Prints "first-token" at the first text delta: the parent's clock stops there. */
    private static final class FirstTokenPrinter implements ModelStreamListener {
        private boolean first = true;

        @Override
        public void textDelta(String delta) {
            if (first) {
                first = false;
                System.out.println("first-token");
                System.out.flush();
            }
        }

        @Override
        public void toolCallStarted(String toolCallId, String toolName) {
        }

        @Override
        public void toolCallArgumentsDelta(String toolCallId, String delta) {
        }
    }

    /** The SDK's client: what the Bedrock path would load if it used BedrockRuntimeAsyncClient. */
    static final class SdkChild {
        static void run(String endpoint) {
            var client = software.amazon.awssdk.services.bedrockruntime.BedrockRuntimeAsyncClient.builder()
                    .region(software.amazon.awssdk.regions.Region.US_EAST_1)
                    .endpointOverride(java.net.URI.create(endpoint))
                    // HTTP/1.1 as the stand-in speaks it (Bedrock itself would negotiate HTTP/2 over TLS)
                    .httpClientBuilder(software.amazon.awssdk.http.nio.netty.NettyNioAsyncHttpClient.builder()
                            .protocol(software.amazon.awssdk.http.Protocol.HTTP1_1))
                    .build();
            var request = software.amazon.awssdk.services.bedrockruntime.model.ConverseStreamRequest.builder()
                    .modelId(MODEL_ID)
                    .system(software.amazon.awssdk.services.bedrockruntime.model.SystemContentBlock.fromText("You edit table configs."))
                    .messages(software.amazon.awssdk.services.bedrockruntime.model.Message.builder()
                            .role(software.amazon.awssdk.services.bedrockruntime.model.ConversationRole.USER)
                            .content(software.amazon.awssdk.services.bedrockruntime.model.ContentBlock.fromText("hello")).build())
                    .inferenceConfig(c -> c.maxTokens(256))
                    .build();
            boolean[] first = {true};
            var handler = software.amazon.awssdk.services.bedrockruntime.model.ConverseStreamResponseHandler.builder()
                    .subscriber(software.amazon.awssdk.services.bedrockruntime.model.ConverseStreamResponseHandler.Visitor.builder()
                            .onContentBlockDelta(e -> {
                                if (first[0]) {
                                    first[0] = false;
                                    System.out.println("first-token");
                                    System.out.flush();
                                }
                            }).build())
                    .build();
            CompletableFuture<Void> done = client.converseStream(request, handler);
            done.join();
            client.close();
        }
    }
}
