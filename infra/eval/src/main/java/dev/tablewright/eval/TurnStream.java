package dev.tablewright.eval;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * One response of the chat function, the parts of the UI message stream it is (docs/stream-protocol.md): what the
 * harness counts and acts on. Model steps are the {@code start-step} parts (one per model call); tool calls are the
 * distinct tool call ids; a tool call failed when its input was refused ({@code tool-input-error}), it answered
 * {@code tool-output-error}, or its output says {@code valid: false}; the tokens are the usage the {@code finish}
 * part's {@code messageMetadata.usage} carries (the turn's total over its model calls).
 */
public record TurnStream(int modelSteps, Set<String> toolCalls, Set<String> failedToolCalls, long inputTokens,
                         long outputTokens, String finishReason, boolean stopped, String errorText, String text,
                         List<String> previewIds, List<JsonNode> inputRequests) {

    public TurnStream {
        toolCalls = Set.copyOf(toolCalls);
        failedToolCalls = Set.copyOf(failedToolCalls);
        previewIds = List.copyOf(previewIds);
        inputRequests = List.copyOf(inputRequests);
    }

    /** What the harness counts of one response's parts, in the order they arrived. */
    public static TurnStream of(List<JsonNode> parts) {
        int steps = 0;
        Set<String> calls = new LinkedHashSet<>();
        Set<String> failed = new LinkedHashSet<>();
        long input = 0;
        long output = 0;
        String finish = null;
        boolean stopped = false;
        String error = null;
        StringBuilder text = new StringBuilder();
        List<String> previews = new ArrayList<>();
        List<JsonNode> requests = new ArrayList<>();
        for (JsonNode part : parts) {
            String id = part.path("toolCallId").asText(null);
            switch (part.path("type").asText()) {
                case "start-step" -> steps++;
                case "text-delta" -> text.append(part.path("delta").asText(""));
                case "tool-input-start", "tool-input-available" -> add(calls, id);
                case "tool-input-error", "tool-output-error" -> {
                    add(calls, id);
                    add(failed, id);
                }
                case "tool-output-available" -> {
                    add(calls, id);
                    if (part.path("output").path("valid").isBoolean() && !part.path("output").path("valid").asBoolean()) {
                        add(failed, id);
                    }
                }
                case "data-table-config-preview" -> {
                    String previewId = part.path("data").path("previewId").asText(null);
                    if (previewId != null && !previews.contains(previewId)) {
                        previews.add(previewId);
                    }
                }
                case "data-user-input-request" -> requests.add(part.path("data"));
                case "error" -> error = part.path("errorText").asText("error");
                case "finish" -> {
                    finish = part.path("finishReason").asText(null);
                    JsonNode metadata = part.path("messageMetadata");
                    stopped = metadata.path("stopped").asBoolean(false);
                    input += metadata.path("usage").path("inputTokens").asLong(0);
                    output += metadata.path("usage").path("outputTokens").asLong(0);
                }
                default -> {
                }
            }
        }
        return new TurnStream(steps, calls, failed, input, output, finish, stopped, error, text.toString(), previews, requests);
    }

    private static void add(Set<String> ids, String id) {
        if (id != null) {
            ids.add(id);
        }
    }

    /**
     * Why this response ends the run as a failure, or null: an {@code error} part, no {@code finish}, or a finish
     * other than {@code stop} ({@code tool-calls} is a pause the caller handles).
     */
    public String failure() {
        if (errorText != null) {
            return "the turn ended in an error: " + errorText;
        }
        if (finishReason == null) {
            return "the stream ended without a finish";
        }
        return switch (finishReason) {
            case "stop", "tool-calls" -> null;
            case "other" -> stopped ? "the turn was stopped" : "the turn ran out of its step or time budget (finish: other)";
            case "length" -> "the turn hit a token limit (finish: length)";
            case "error" -> "the turn ended in an error (finish: error)";
            default -> "the turn ended with finish " + finishReason;
        };
    }
}
