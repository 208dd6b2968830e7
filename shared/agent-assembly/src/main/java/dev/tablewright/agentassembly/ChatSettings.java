package dev.tablewright.agentassembly;

import dev.tablewright.agent.TurnLimits;
import dev.tablewright.agent.memory.MemoryBudget;
import dev.tablewright.toolassembly.ToolSettings;
import dev.tablewright.lambda.Settings;
import dev.tablewright.userinput.InputRequestService;

import java.util.List;
import java.util.Map;

/**
 * What the chat function reads from its environment, once, when it is built. A value that cannot be used stops the
 * function at init with the variable's name.
 *
 * @param limits             {@code TURN_MAX_STEPS}, {@code TURN_MAX_TOKENS}, ... ({@link TurnLimits#fromEnvironment})
 * @param memory             {@code MEMORY_VERBATIM_TURNS} (default 4), {@code MEMORY_MAX_CHARS} (24000),
 *                           {@code MEMORY_DIGEST_LINES} (30): how much of a conversation the model is sent
 * @param tools              what the tools read ({@link ToolSettings}: {@code DATA_SOURCES}, {@code USER_INPUT_TABLE},
 *                           the input requests' lifetimes)
 * (The tables a door keeps its conversations and stream log in are its stores', {@code DoorStores}.)
 */
public record ChatSettings(TurnLimits limits, MemoryBudget memory, ToolSettings tools) {

    public static ChatSettings fromEnvironment(Map<String, String> env) {
        return fromEnvironment(env, ToolSettings.fromEnvironment(env));
    }

    /** The chat's own variables, beside the tools' settings read already. */
    public static ChatSettings fromEnvironment(Map<String, String> env, ToolSettings tools) {
        MemoryBudget d = MemoryBudget.DEFAULT;
        return new ChatSettings(TurnLimits.fromEnvironment(env),
                new MemoryBudget(
                        (int) Settings.positive("MEMORY_VERBATIM_TURNS", env.get("MEMORY_VERBATIM_TURNS"), d.verbatimTurns()),
                        (int) Settings.positive("MEMORY_MAX_CHARS", env.get("MEMORY_MAX_CHARS"), d.maxHistoryChars()),
                        (int) Settings.positive("MEMORY_DIGEST_LINES", env.get("MEMORY_DIGEST_LINES"), d.maxDigestLines()),
                        d.maxElidedChars()),
                tools);
    }

    /** The data sources the database tools offer ({@code DATA_SOURCES}). */
    public List<String> dataSources() {
        return tools.dataSources();
    }

    /** {@code USER_INPUT_TABLE}; null: no tool may ask for input. */
    public String userInputTable() {
        return tools.userInputTable();
    }

    /** {@code INPUT_REQUEST_TTL_HOURS} (24), {@code SAVED_VALUES_TTL_DAYS} (7). */
    public InputRequestService.Expiry inputExpiry() {
        return tools.inputExpiry();
    }
}
