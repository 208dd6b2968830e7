package dev.tablewright.localstack.local;

import dev.tablewright.bedrock.BedrockChatModel;
import dev.tablewright.bedrock.BedrockSettings;
import dev.tablewright.agent.model.ChatModel;
import dev.tablewright.localstack.demo.DemoModel;
import dev.tablewright.fakes.model.BedrockModelServer;
import dev.tablewright.openai.ModelSettings;
import dev.tablewright.fakes.model.ModelScript;
import dev.tablewright.fakes.model.ScriptedModelServer;
import dev.tablewright.openai.OpenAiChatModel;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The local stack's language model. With {@code MODEL_PROVIDER} unset or {@code openai}: an OpenAI-compatible
 * endpoint from the environment ({@code OPENAI_API_KEY}, {@code OPENAI_BASE_URL}, {@code OPENAI_MODEL}), or, when
 * neither a key nor a base URL is set, the offline demo model ({@link DemoModel}: a few rules over the sample
 * database, served over the same OpenAI-compatible HTTP). Tests use the scripted model ({@link #scripted}), which
 * replays what they queue (the bundled example conversation, {@value #EXAMPLE}, for some).
 * With {@code MODEL_PROVIDER=bedrock}: Amazon Bedrock itself when {@code BEDROCK_MODEL_ID} is set (signed with the
 * shell's AWS credentials for its region, {@link ShellAws}; at {@code BEDROCK_ENDPOINT} when set), else the Bedrock stand-in replaying the same
 * example over ConverseStream's event stream. A scripted model is announced as such, so nobody mistakes its canned
 * answers for a live model.
 */
public final class LocalModel implements AutoCloseable {

    /** Which model answers: what the banner, the page's config.json and the terminal client show. */
    public enum Kind {
        LIVE, OFFLINE_DEMO, SCRIPTED;

        /** The value of {@code model.kind} in the page's config.json. */
        public String wireName() {
            return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
        }
    }

    /** Where the banner's continuation lines start: under the value column. */
    private static final String BANNER_INDENT = " ".repeat(18);

    /** The bundled example conversation (a {@link ModelScript} in JSON). */
    public static final String EXAMPLE = "/local/example-conversation.json";
    /** The example is queued this many times: each chat turn replays it from the start. */
    private static final int REPLAYS = 200;

    /** Credentials the Bedrock stand-in checks signatures against (they sign nothing else). */
    static final String STAND_IN_ACCESS_KEY = "AKIDLOCALSTANDIN0000";
    static final String STAND_IN_SECRET_KEY = "local-bedrock-stand-in-secret";

    private final Kind kind;
    private final ModelSettings settings;
    private final BedrockSettings bedrock;
    private final AwsCredentialsProvider credentials;
    private final ScriptedModelServer scripted;
    private final BedrockModelServer bedrockStandIn;
    private final int turnsPerReplay;

    private LocalModel(Kind kind, ModelSettings settings, ScriptedModelServer scripted, int turnsPerReplay) {
        this(kind, settings, null, null, scripted, null, turnsPerReplay);
    }

    private LocalModel(Kind kind, ModelSettings settings, BedrockSettings bedrock, AwsCredentialsProvider credentials,
                       ScriptedModelServer scripted, BedrockModelServer bedrockStandIn, int turnsPerReplay) {
        this.kind = kind;
        this.settings = settings;
        this.bedrock = bedrock;
        this.credentials = credentials;
        this.scripted = scripted;
        this.bedrockStandIn = bedrockStandIn;
        this.turnsPerReplay = turnsPerReplay;
    }

    public static LocalModel resolve(Map<String, String> env) throws IOException {
        if (onBedrock(env)) {
            if (blankToNull(env.get("BEDROCK_MODEL_ID")) != null) {
                // the shell's credentials and region, read from env (the process's, or a test's)
                return new LocalModel(Kind.LIVE, null, BedrockSettings.fromEnvironment(withRegion(env)),
                        new ShellAws(env).credentials(), null, null, 0);
            }
            return scripted(exampleConversation(), env);
        }
        String key = blankToNull(env.get("OPENAI_API_KEY"));
        String baseUrl = blankToNull(env.get("OPENAI_BASE_URL"));
        if (key != null || baseUrl != null) {
            return new LocalModel(Kind.LIVE, new ModelSettings(baseUrl != null ? baseUrl : ModelSettings.DEFAULT_BASE_URL,
                    env.getOrDefault("OPENAI_MODEL", ModelSettings.DEFAULT_MODEL), key != null ? key : "not-needed",
                    idleTimeout(env, Duration.ofSeconds(60))), null, 0);
        }
        return offlineDemo(env);
    }

    /** The offline demo model on a port of its own, reached over HTTP like any OpenAI-compatible endpoint. */
    public static LocalModel offlineDemo(Map<String, String> env) throws IOException {
        ScriptedModelServer server = ScriptedModelServer.answering(0, "offline-demo-model", new DemoModel());
        return new LocalModel(Kind.OFFLINE_DEMO, new ModelSettings(server.baseUrl(), DemoModel.NAME, "offline-demo-needs-no-key",
                idleTimeout(env, Duration.ofSeconds(30))), server, 0);
    }

    static boolean onBedrock(Map<String, String> env) {
        return "bedrock".equalsIgnoreCase(String.valueOf(env.get("MODEL_PROVIDER")).strip());
    }

    /**
     * The shell's region as AWS_REGION ({@link ShellAws#region()}: its profile's when no variable names one, else
     * us-east-1; the stand-in does not care, live Bedrock names it in the banner).
     */
    private static Map<String, String> withRegion(Map<String, String> env) {
        Map<String, String> out = new LinkedHashMap<>(env);
        out.put("AWS_REGION", new ShellAws(env).region());
        return out;
    }

    /** {@code MODEL_IDLE_TIMEOUT_SECONDS}, as the chat function reads it; else {@code fallback}. */
    static Duration idleTimeout(Map<String, String> env, Duration fallback) {
        String value = blankToNull(env.get("MODEL_IDLE_TIMEOUT_SECONDS"));
        if (value == null) {
            return fallback;
        }
        try {
            long seconds = Long.parseLong(value.strip());
            if (seconds > 0) {
                return Duration.ofSeconds(seconds);
            }
        } catch (NumberFormatException e) {
            // refused below
        }
        throw new IllegalArgumentException("MODEL_IDLE_TIMEOUT_SECONDS must be a positive whole number of seconds");
    }

    /** The scripted model replaying {@code script} (each replay is one chat turn's model calls). */
    public static LocalModel scripted(ModelScript script) throws IOException {
        return scripted(script, Map.of());
    }

    public static LocalModel scripted(ModelScript script, Map<String, String> env) throws IOException {
        if (onBedrock(env)) {
            BedrockModelServer server = BedrockModelServer.start().verifySignatures(STAND_IN_ACCESS_KEY, STAND_IN_SECRET_KEY);
            for (int i = 0; i < REPLAYS; i++) {
                server.enqueue(script);
            }
            Map<String, String> standIn = new LinkedHashMap<>(withRegion(env));
            standIn.put("BEDROCK_ENDPOINT", server.endpoint());
            standIn.putIfAbsent("BEDROCK_MODEL_ID", "us.amazon.nova-pro-v1:0");
            BedrockSettings settings = BedrockSettings.fromEnvironment(standIn);
            return new LocalModel(Kind.SCRIPTED, null, new BedrockSettings(settings.endpoint(), settings.region(), settings.modelId(),
                    idleTimeout(env, Duration.ofSeconds(30))),
                    StaticCredentialsProvider.create(AwsBasicCredentials.create(STAND_IN_ACCESS_KEY, STAND_IN_SECRET_KEY)),
                    null, server, script.turns().size());
        }
        ScriptedModelServer server = ScriptedModelServer.start();
        for (int i = 0; i < REPLAYS; i++) {
            server.enqueue(script);
        }
        return new LocalModel(Kind.SCRIPTED, new ModelSettings(server.baseUrl(), "scripted-example", "scripted-model-needs-no-key",
                idleTimeout(env, Duration.ofSeconds(30))), server, script.turns().size());
    }

    public static ModelScript exampleConversation() throws IOException {
        try (InputStream in = LocalModel.class.getResourceAsStream(EXAMPLE)) {
            if (in == null) {
                throw new IOException(EXAMPLE + " is missing from the classpath");
            }
            return ModelScript.fromJson(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
    }

    /** The OpenAI-compatible model's settings; null when the stack runs on Bedrock. */
    public ModelSettings settings() {
        return settings;
    }

    /** Bedrock's settings (the stand-in's endpoint when scripted); null when the stack runs on an OpenAI-compatible model. */
    public BedrockSettings bedrockSettings() {
        return bedrock;
    }

    /** The chat function's model, as {@code MODEL_PROVIDER} picks it in AWS. */
    public ChatModel chatModel() {
        return bedrock != null ? new BedrockChatModel(bedrock, credentials) : new OpenAiChatModel(settings);
    }

    public Kind kind() {
        return kind;
    }

    public boolean isScripted() {
        return kind == Kind.SCRIPTED;
    }

    /** The scripted OpenAI-compatible model tests queue turns on; null on Bedrock, the offline demo or a live model. */
    public ScriptedModelServer scriptedServer() {
        return kind == Kind.SCRIPTED ? scripted : null;
    }

    /** The local OpenAI-compatible server (scripted or offline demo) with the requests it received; else null. */
    public ScriptedModelServer localServer() {
        return scripted;
    }

    /** The Bedrock stand-in; null unless {@code MODEL_PROVIDER=bedrock} without a {@code BEDROCK_MODEL_ID}. */
    public BedrockModelServer bedrockServer() {
        return bedrockStandIn;
    }

    /** The banner's model line (the offline demo's runs over a few lines). */
    public String describe() {
        if (kind == Kind.OFFLINE_DEMO) {
            return "OFFLINE DEMO model (no OPENAI_API_KEY or OPENAI_BASE_URL set): a few fixed rules, not a language model.\n"
                    + BANNER_INDENT + "It builds and changes a table over the sample database from phrasings like\n"
                    + BANNER_INDENT + String.join("\n" + BANNER_INDENT, DemoModel.PHRASINGS.stream().map(p -> "\"" + p + "\"").toList())
                    + "\n" + BANNER_INDENT + "and says so for anything else. Set OPENAI_API_KEY (and optionally OPENAI_BASE_URL, "
                    + "OPENAI_MODEL) for a live model, or MODEL_PROVIDER=bedrock.";
        }
        if (bedrockStandIn != null) {
            return "SCRIPTED Bedrock stand-in (MODEL_PROVIDER=bedrock, no BEDROCK_MODEL_ID set) at " + bedrock.endpoint()
                    + ": every chat turn replays the bundled example conversation (infra/local-stack/src/main/resources" + EXAMPLE + ", "
                    + turnsPerReplay + " model calls) over ConverseStream, whatever you type. Set BEDROCK_MODEL_ID (and AWS "
                    + "credentials, AWS_REGION) for Amazon Bedrock itself.";
        }
        if (bedrock != null) {
            return "Amazon Bedrock model " + bedrock.modelId() + " in " + bedrock.region() + " at " + bedrock.endpoint();
        }
        if (scripted != null) {
            return "SCRIPTED model: replays its script (" + turnsPerReplay + " model calls a replay), whatever you type.";
        }
        return "live model " + settings.model() + " at " + settings.baseUrl();
    }

    /** A short name of the model for a client: what the page's note and the terminal client's first line show. */
    public String label() {
        return switch (kind) {
            case OFFLINE_DEMO -> "offline demo model (no model key set: a few fixed rules, not a language model)";
            case SCRIPTED -> bedrockStandIn != null ? "scripted Bedrock stand-in (replays an example conversation)" : "scripted test model";
            case LIVE -> bedrock != null ? "Amazon Bedrock " + bedrock.modelId() : settings.model();
        };
    }

    @Override
    public void close() {
        if (scripted != null) {
            scripted.close();
        }
        if (bedrockStandIn != null) {
            bedrockStandIn.close();
        }
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.trim();
    }
}
