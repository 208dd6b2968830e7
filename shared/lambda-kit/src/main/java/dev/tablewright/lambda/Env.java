package dev.tablewright.lambda;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The one way handlers read their environment variables. In AWS it is exactly {@link System#getenv(String)};
 * the local stack and the tests run handlers in-process, where the process environment cannot be changed, so
 * they set values here with {@link #override(Map)} before the handlers are created.
 *
 * <p>Read variables with a string literal ({@code Env.get("USER_INPUT_TABLE")}): the template test scans the
 * sources for these literals and checks each one is set in template.yaml.
 */
public final class Env {

    private static final Map<String, String> OVERRIDES = new ConcurrentHashMap<>();

    private Env() {
    }

    /** The variable's value, or null when it is unset or blank. */
    public static String get(String name) {
        String value = OVERRIDES.containsKey(name) ? OVERRIDES.get(name) : System.getenv(name);
        return value == null || value.isBlank() ? null : value;
    }

    public static String get(String name, String fallback) {
        String value = get(name);
        return value == null ? fallback : value;
    }

    public static Optional<String> optional(String name) {
        return Optional.ofNullable(get(name));
    }

    /** The variable's value; a plain message naming the variable when it is missing (a deployment error). */
    public static String require(String name) {
        String value = get(name);
        if (value == null) {
            throw new IllegalStateException("environment variable " + name + " is not set");
        }
        return value;
    }

    /**
     * The whole environment as a map: the process environment with the in-process overrides on top. For code that
     * takes its settings from a {@code Map<String, String>} (read names from it with literals, as above).
     */
    public static Map<String, String> all() {
        Map<String, String> merged = new java.util.HashMap<>(System.getenv());
        merged.putAll(OVERRIDES);
        merged.values().removeIf(String::isBlank);
        return Map.copyOf(merged);
    }

    /** In-process only (local stack, tests): values that take precedence over the process environment. */
    public static void override(Map<String, String> values) {
        OVERRIDES.putAll(values);
    }

    /** Drops the given overrides (what a local stack set, when it stops). */
    public static void removeOverrides(java.util.Collection<String> names) {
        names.forEach(OVERRIDES::remove);
    }

    /** Drops every override (tests). */
    public static void clearOverrides() {
        OVERRIDES.clear();
    }
}
