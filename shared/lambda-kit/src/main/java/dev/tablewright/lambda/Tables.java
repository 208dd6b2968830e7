package dev.tablewright.lambda;

import java.util.Map;

/**
 * The template's tables as a function's environment names them, read in one place. A table every deployment has
 * defaults to its logical id in template.yaml (the names the local stack gives them; deployed, the template sets
 * each variable); a table a deployment may leave out is null when its variable is unset or blank.
 *
 * @param configs       {@code CONFIGS_TABLE} (default {@value #CONFIGS})
 * @param previews      {@code PREVIEWS_TABLE} (default {@value #PREVIEWS})
 * @param mcpSessions   {@code MCP_SESSIONS_TABLE} (default {@value #MCP_SESSIONS})
 * @param userInput     {@code USER_INPUT_TABLE}; null when unset ({@link #userInputOrDefault}: {@value #USER_INPUT})
 * @param conversations {@code CONVERSATIONS_TABLE}; null: conversations are not stored
 * @param turnStreams   {@code TURN_STREAMS_TABLE}; null: a running turn is not recorded
 */
public record Tables(String configs, String previews, String mcpSessions, String userInput, String conversations,
                     String turnStreams) {

    public static final String CONFIGS = "ConfigsTable";
    public static final String PREVIEWS = "PreviewsTable";
    public static final String MCP_SESSIONS = "McpSessionsTable";
    public static final String USER_INPUT = "UserInputTable";

    public static Tables fromEnvironment(Map<String, String> env) {
        return new Tables(orDefault(env, "CONFIGS_TABLE", CONFIGS), orDefault(env, "PREVIEWS_TABLE", PREVIEWS),
                orDefault(env, "MCP_SESSIONS_TABLE", MCP_SESSIONS), blankToNull(env.get("USER_INPUT_TABLE")),
                blankToNull(env.get("CONVERSATIONS_TABLE")), blankToNull(env.get("TURN_STREAMS_TABLE")));
    }

    /** {@code USER_INPUT_TABLE}, or the template's name: for a function that always asks through the lifecycle. */
    public String userInputOrDefault() {
        return userInput == null ? USER_INPUT : userInput;
    }

    private static String orDefault(Map<String, String> env, String name, String logicalId) {
        String value = blankToNull(env.get(name));
        return value == null ? logicalId : value;
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value;
    }
}
