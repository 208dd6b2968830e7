package dev.tablewright.infra.local;

import dev.tablewright.openai.ModelSettings;
import dev.tablewright.infra.model.ModelScript;
import dev.tablewright.infra.model.ScriptedModelServer;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;

/**
 * The local stack's language model: an OpenAI-compatible endpoint from the environment ({@code OPENAI_API_KEY},
 * {@code OPENAI_BASE_URL}, {@code OPENAI_MODEL}), or, when neither a key nor a base URL is set, the scripted model
 * replaying the bundled example conversation ({@value #EXAMPLE}) — announced as such, so nobody mistakes its
 * canned answers for a live model.
 */
public final class LocalModel implements AutoCloseable {

    /** The bundled example conversation (a {@link ModelScript} in JSON). */
    public static final String EXAMPLE = "/local/example-conversation.json";
    /** The example is queued this many times: each chat turn replays it from the start. */
    private static final int REPLAYS = 200;

    private final ModelSettings settings;
    private final ScriptedModelServer scripted;
    private final int turnsPerReplay;

    private LocalModel(ModelSettings settings, ScriptedModelServer scripted, int turnsPerReplay) {
        this.settings = settings;
        this.scripted = scripted;
        this.turnsPerReplay = turnsPerReplay;
    }

    public static LocalModel resolve(Map<String, String> env) throws IOException {
        String key = blankToNull(env.get("OPENAI_API_KEY"));
        String baseUrl = blankToNull(env.get("OPENAI_BASE_URL"));
        if (key != null || baseUrl != null) {
            return new LocalModel(new ModelSettings(baseUrl != null ? baseUrl : ModelSettings.DEFAULT_BASE_URL,
                    env.getOrDefault("OPENAI_MODEL", ModelSettings.DEFAULT_MODEL), key != null ? key : "not-needed",
                    idleTimeout(env, Duration.ofSeconds(60))), null, 0);
        }
        return scripted(exampleConversation(), env);
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
        ScriptedModelServer server = ScriptedModelServer.start();
        for (int i = 0; i < REPLAYS; i++) {
            server.enqueue(script);
        }
        return new LocalModel(new ModelSettings(server.baseUrl(), "scripted-example", "scripted-model-needs-no-key",
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

    public ModelSettings settings() {
        return settings;
    }

    public boolean isScripted() {
        return scripted != null;
    }

    public ScriptedModelServer scriptedServer() {
        return scripted;
    }

    /** One line for the banner. */
    public String describe() {
        if (scripted != null) {
            return "SCRIPTED model (no OPENAI_API_KEY or OPENAI_BASE_URL set): every chat turn replays the bundled example "
                    + "conversation (infra/src/main/resources" + EXAMPLE + ", " + turnsPerReplay + " model calls), whatever you type. "
                    + "Set OPENAI_API_KEY (and optionally OPENAI_BASE_URL, OPENAI_MODEL) for a live model.";
        }
        return "live model " + settings.model() + " at " + settings.baseUrl();
    }

    @Override
    public void close() {
        if (scripted != null) {
            scripted.close();
        }
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.trim();
    }
}
