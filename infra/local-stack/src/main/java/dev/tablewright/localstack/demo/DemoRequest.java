package dev.tablewright.localstack.demo;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.fakes.model.RecordedRequest;
import dev.tablewright.json.Json;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The part of a chat-completions request the demo model decides from: the last user message, the tool calls made
 * since it (this turn's, with their results), the working config from the system prompt, and the tools offered.
 * Earlier turns are not read, so it does not matter how much of the history the chat sends.
 */
public record DemoRequest(String lastUserMessage, List<ToolStep> turnSteps, WorkingConfigSummary config, Set<String> offeredTools) {

    /**
     * A tool call of this turn and what came back: {@code result} is the tool message parsed, or null when it is not
     * JSON (the chat clips a long one); {@code text} is the message as sent; {@code step} counts the model's answers
     * in this turn (calls made in one answer share it).
     */
    record ToolStep(String name, JsonNode arguments, JsonNode result, String text, int step) {
        /** The tool failed outright ({@code {"error": ...}}), answered an invalid config, or refused a setting. */
        boolean failed() {
            if (result == null) {
                return text.startsWith("{\"error\"") || text.contains("\"valid\":false");
            }
            return result.hasNonNull("error") || (result.has("valid") && !result.path("valid").asBoolean())
                    || (result.has("success") && !result.path("success").asBoolean());
        }
    }

    public DemoRequest {
        turnSteps = List.copyOf(turnSteps);
        offeredTools = Set.copyOf(offeredTools);
    }

    public static DemoRequest of(RecordedRequest request) {
        JsonNode messages = request.messages();
        int lastUser = -1;
        for (int i = 0; i < messages.size(); i++) {
            if (messages.get(i).path("role").asText().equals("user")) {
                lastUser = i;
            }
        }
        String userText = lastUser < 0 ? "" : RecordedRequest.contentText(messages.get(lastUser).path("content"));
        Map<String, String> results = new LinkedHashMap<>();
        for (int i = lastUser + 1; i < messages.size(); i++) {
            JsonNode m = messages.get(i);
            if (m.path("role").asText().equals("tool")) {
                results.put(m.path("tool_call_id").asText(), RecordedRequest.contentText(m.path("content")));
            }
        }
        List<ToolStep> steps = new ArrayList<>();
        for (int i = lastUser + 1; i < messages.size(); i++) {
            int step = i;
            for (JsonNode call : messages.get(i).path("tool_calls")) {
                String id = call.path("id").asText();
                if (results.containsKey(id)) {
                    steps.add(new ToolStep(call.path("function").path("name").asText(),
                            parse(call.path("function").path("arguments").asText("{}")), parse(results.get(id)), results.get(id), step));
                }
            }
        }
        Set<String> tools = new LinkedHashSet<>(request.toolNames());
        return new DemoRequest(userText, steps, WorkingConfigSummary.fromSystemPrompt(request.systemText()), tools);
    }

    private static JsonNode parse(String text) {
        try {
            return Json.parse(text);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
