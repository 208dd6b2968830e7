package dev.tablewright.lambda;

import java.util.Map;

/**
 * The template's tables every deployment has, as a function's environment names them, read in one place: each
 * defaults to its logical id in template.yaml (the names the local stack gives them; deployed, the template sets each
 * variable). The tables a deployment may leave out ({@code CONVERSATIONS_TABLE}, {@code TURN_STREAMS_TABLE}) are
 * read where their absence means something.
 *
 * @param configs     {@code CONFIGS_TABLE} (default {@value #CONFIGS})
 * @param previews    {@code PREVIEWS_TABLE} (default {@value #PREVIEWS})
 * @param mcpSessions {@code MCP_SESSIONS_TABLE} (default {@value #MCP_SESSIONS})
 * @param userInput   {@code USER_INPUT_TABLE} (default {@value #USER_INPUT})
 */
public record Tables(String configs, String previews, String mcpSessions, String userInput) {

    public static final String CONFIGS = "ConfigsTable";
    public static final String PREVIEWS = "PreviewsTable";
    public static final String MCP_SESSIONS = "McpSessionsTable";
    public static final String USER_INPUT = "UserInputTable";

    public static Tables fromEnvironment(Map<String, String> env) {
        return new Tables(orDefault(env, "CONFIGS_TABLE", CONFIGS), orDefault(env, "PREVIEWS_TABLE", PREVIEWS),
                orDefault(env, "MCP_SESSIONS_TABLE", MCP_SESSIONS), orDefault(env, "USER_INPUT_TABLE", USER_INPUT));
    }

    private static String orDefault(Map<String, String> env, String name, String logicalId) {
        String value = env.get(name);
        return value == null || value.isBlank() ? logicalId : value;
    }
}
