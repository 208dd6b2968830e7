package dev.tablewright.logging;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.tablewright.json.Json;

import java.io.IOException;
import java.io.PrintStream;
import java.io.StringWriter;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * One JSON object per log line, on stdout (CloudWatch reads it as-is). The request context (request id,
 * conversation id, tool name) is carried per thread and stamped on every line.
 *
 * <p>Lines below the level threshold are not written at all: Lambda's own threshold when the function logs in its JSON
 * format ({@code AWS_LAMBDA_LOG_LEVEL}, from the template's LogLevel), else INFO ({@link #threshold} sets it: the
 * local stack takes {@code LOG_LEVEL}). Lambda would filter them too (it reads the "level" field), but not building
 * them costs nothing.
 *
 * <p>Never pass a secret or a user's field value as a field: log names, counts and ids only.
 */
public final class StructuredLog {

    private static final ThreadLocal<Map<String, String>> CONTEXT = ThreadLocal.withInitial(LinkedHashMap::new);
    private static volatile PrintStream out = System.out;
    private static final List<String> LEVELS = List.of("TRACE", "DEBUG", "INFO", "WARN", "ERROR", "FATAL");
    // ranks: indexes of LEVELS
    private static final int DEBUG = 1;
    private static final int INFO = 2;
    private static final int WARN = 3;
    private static final int ERROR = 4;
    private static volatile int threshold = rank(System.getenv("AWS_LAMBDA_LOG_LEVEL"), INFO);

    private final String logger;

    private StructuredLog(String logger) {
        this.logger = logger;
    }

    public static StructuredLog of(Class<?> type) {
        return new StructuredLog(type.getSimpleName());
    }

    /** Sets a context key (requestId, conversationId, toolName, ...) for the current thread; null removes it. */
    public static void put(String key, String value) {
        if (value == null) {
            CONTEXT.get().remove(key);
        } else {
            CONTEXT.get().put(key, value);
        }
    }

    public static void clear() {
        CONTEXT.get().clear();
        TraceContext.restore(null);
    }

    /** A context of its own for one invocation, closed when it ends. */
    public interface Scope extends AutoCloseable {
        @Override
        void close();
    }

    /**
     * Starts an empty context (and no trace) for one invocation; closing it puts back what the thread had before. A tool or route
     * run in-process by another invocation (the chat turn calling a tool on the local stack) keeps the caller's ids.
     */
    public static Scope scope() {
        Map<String, String> saved = new LinkedHashMap<>(CONTEXT.get());
        TraceContext savedTrace = TraceContext.currentOrNull();
        CONTEXT.get().clear();
        TraceContext.restore(null);
        return () -> {
            CONTEXT.get().clear();
            CONTEXT.get().putAll(saved);
            TraceContext.restore(savedTrace);
        };
    }

    /**
     * {@code task} as it runs on another thread this invocation hands work to (a turn's lookups run at once): with
     * this thread's context and trace, so its lines carry the same ids; the worker's context is cleared after.
     */
    public static <T> Callable<T> carrying(Callable<T> task) {
        Runnable enter = captured();
        return () -> {
            enter.run();
            try {
                return task.call();
            } finally {
                clear();
            }
        };
    }

    /** {@link #carrying(Callable)} for a task that answers nothing (a thread's whole run). */
    public static Runnable carrying(Runnable task) {
        Runnable enter = captured();
        return () -> {
            enter.run();
            try {
                task.run();
            } finally {
                clear();
            }
        };
    }

    /** This thread's context and trace, to be put on the thread that runs the task. */
    private static Runnable captured() {
        Map<String, String> context = new LinkedHashMap<>(CONTEXT.get());
        TraceContext trace = TraceContext.currentOrNull();
        return () -> {
            CONTEXT.get().putAll(context);
            TraceContext.restore(trace);
        };
    }

    /** Redirects output (tests). */
    public static void redirect(PrintStream stream) {
        out = stream;
    }

    /** Sets the lowest level written (TRACE, DEBUG, INFO, WARN, ERROR, FATAL; any case); an unknown name changes nothing. */
    public static void threshold(String level) {
        threshold = rank(level, threshold);
    }

    public static boolean enabled(String level) {
        return rank(level, Integer.MAX_VALUE) >= threshold;
    }

    private static int rank(String level, int otherwise) {
        int i = level == null ? -1 : LEVELS.indexOf(level.trim().toUpperCase(Locale.ROOT));
        return i < 0 ? otherwise : i;
    }

    public void debug(String message, Object... keyValues) {
        write(DEBUG, message, null, keyValues);
    }

    public void info(String message, Object... keyValues) {
        write(INFO, message, null, keyValues);
    }

    public void warn(String message, Object... keyValues) {
        write(WARN, message, null, keyValues);
    }

    /** Logs the error's type and message only; stack traces stay out of user-facing answers but are useful in logs. */
    public void error(String message, Throwable error, Object... keyValues) {
        write(ERROR, message, error, keyValues);
    }

    /** {@code rank} indexes {@link #LEVELS}: the line's level, compared to the threshold without parsing a name. */
    private static boolean namedBy(Object[] keyValues, String key) {
        for (int i = 0; i + 1 < keyValues.length; i += 2) {
            if (key.equals(String.valueOf(keyValues[i]))) {
                return true;
            }
        }
        return false;
    }

    private void write(int rank, String message, Throwable error, Object[] keyValues) {
        if (rank < threshold) {
            return;
        }
        String level = LEVELS.get(rank);
        StringWriter buffer = new StringWriter(256);
        try (JsonGenerator g = Json.MAPPER.getFactory().createGenerator(buffer)) {
            g.writeStartObject();
            g.writeStringField("timestamp", Instant.now().toString());
            g.writeStringField("level", level);
            g.writeStringField("logger", logger);
            g.writeStringField("message", message);
            for (Map.Entry<String, String> e : CONTEXT.get().entrySet()) {
                if (!namedBy(keyValues, e.getKey())) { // the line's own field wins: a key appears once in a line
                    g.writeStringField(e.getKey(), e.getValue());
                }
            }
            for (int i = 0; i + 1 < keyValues.length; i += 2) {
                g.writeFieldName(String.valueOf(keyValues[i]));
                Json.MAPPER.writeValue(g, keyValues[i + 1]);
            }
            if (error != null) {
                g.writeStringField("errorType", error.getClass().getName());
                g.writeStringField("errorMessage", String.valueOf(error.getMessage()));
                StringBuilder trace = new StringBuilder();
                for (StackTraceElement el : error.getStackTrace()) {
                    trace.append(el).append('\n');
                }
                g.writeStringField("stackTrace", trace.toString());
            }
            g.writeEndObject();
        } catch (IOException e) {
            buffer = new StringWriter().append("{\"level\":\"ERROR\",\"message\":\"log line could not be written\"}");
        }
        out.println(buffer);
    }
}
