package dev.tablewright.eval;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.List;

/**
 * One run of one task, as the report records it.
 *
 * @param run             1-based
 * @param reason          why it passed or failed, in one sentence
 * @param modelSteps      model calls over all its turns
 * @param toolCalls       tool calls over all its turns
 * @param failedToolCalls those refused or answered with an error or {@code valid: false}
 * @param inputTokens     the model's usage as the turns' {@code finish} parts report it, summed
 * @param seconds         wall time of the conversation: its turns, answers to questions and accepts
 * @param conversationId  the stored conversation (a conversation of its own user)
 * @param configId        the final saved config; null when none was saved
 * @param config          that config as stored; null when none
 * @param turns           each user turn: how it ended and what it cost
 * @param notes           what the harness noticed on the way (a preview it could not accept)
 */
public record RunRecord(String taskId, int run, boolean passed, String reason, int modelSteps, int toolCalls,
                        int failedToolCalls, long inputTokens, long outputTokens, double seconds, String conversationId,
                        String configId, JsonNode config, List<Turn> turns, List<String> notes) {

    public RunRecord {
        turns = List.copyOf(turns);
        notes = List.copyOf(notes);
    }

    /** A run that could not start (its deployment did not): failed for {@code why}, with nothing measured. */
    public static RunRecord notRun(String taskId, int run, String why) {
        return new RunRecord(taskId, run, false, why, 0, 0, 0, 0, 0, 0, null, null, null, List.of(), List.of());
    }

    /** One user turn (with the resumed responses after a question, if any). */
    public record Turn(String finishReason, int modelSteps, int toolCalls, int failedToolCalls, long inputTokens,
                       long outputTokens, int previews) {
    }
}
