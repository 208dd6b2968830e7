package dev.tablewright.aisdk.request;

import dev.tablewright.agent.AgentInput;
import dev.tablewright.agent.toolcall.ToolResultText;
import dev.tablewright.door.DoorMessages;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.agent.model.ModelMessage;
import dev.tablewright.agent.model.ToolCallRequest;
import dev.tablewright.agent.memory.MemoryBudget;
import dev.tablewright.json.Json;

import java.util.ArrayList;
import java.util.List;

/**
 * The one place UI messages become model messages. An assistant UI message holds several steps (split at
 * {@code step-start}); each step becomes an assistant message with its text and tool calls, followed by one tool
 * message per call that has a result; the last step's calls without one are left unanswered (a tool waiting for the
 * user's input, a client tool whose output did not come back: the turn settles those first). System messages from the
 * client are dropped: the server owns the system prompt.
 */
public final class UiMessageConverter {

    public static final String NOT_COMPLETED = MemoryBudget.NOT_COMPLETED;

    public DoorMessages.Converted convert(List<UiMessage> messages) {
        List<ModelMessage> out = new ArrayList<>();
        List<UiPart.ToolCall> pending = List.of();
        for (int m = 0; m < messages.size(); m++) {
            UiMessage message = messages.get(m);
            boolean last = m == messages.size() - 1;
            switch (message.role()) {
                case "user" -> {
                    String text = text(message.parts());
                    if (!text.isEmpty()) {
                        out.add(new ModelMessage.User(text));
                    }
                }
                case "assistant" -> pending = assistant(message.parts(), out, last);
                default -> {
                    // "system": ignored on purpose (see class comment)
                }
            }
        }
        return new DoorMessages.Converted(out, pending.stream()
                .map(p -> new AgentInput.PendingCall(p.toolCallId(), p.toolName(), p.input())).toList());
    }

    private List<UiPart.ToolCall> assistant(List<UiPart> parts, List<ModelMessage> out, boolean lastMessage) {
        List<List<UiPart>> steps = new ArrayList<>();
        List<UiPart> current = new ArrayList<>();
        for (UiPart part : parts) {
            if (part instanceof UiPart.StepStart) {
                if (!current.isEmpty()) {
                    steps.add(current);
                }
                current = new ArrayList<>();
            } else {
                current.add(part);
            }
        }
        if (!current.isEmpty()) {
            steps.add(current);
        }
        List<UiPart.ToolCall> pending = new ArrayList<>();
        for (int s = 0; s < steps.size(); s++) {
            List<UiPart> step = steps.get(s);
            boolean lastStep = lastMessage && s == steps.size() - 1;
            List<ToolCallRequest> calls = new ArrayList<>();
            List<ModelMessage> results = new ArrayList<>();
            for (UiPart part : step) {
                if (part instanceof UiPart.ToolCall call && !call.state().equals("input-streaming")
                        && !call.state().equals("approval-requested")) {
                    // a call still waiting for the user's approval is not sent to the model (as convertToModelMessages
                    // drops it): answered, it comes back approval-responded and the door settles it first
                    calls.add(new ToolCallRequest(call.toolCallId(), call.toolName(), arguments(call.input())));
                    if (call.hasResult() || call.denied()) {
                        results.add(new ModelMessage.ToolResult(call.toolCallId(), result(call)));
                    } else if (lastStep) {
                        pending.add(call);
                    } else {
                        results.add(new ModelMessage.ToolResult(call.toolCallId(), NOT_COMPLETED));
                    }
                }
            }
            String text = text(step);
            if (!text.isEmpty() || !calls.isEmpty()) {
                out.add(new ModelMessage.Assistant(text, calls));
                out.addAll(results);
            }
        }
        return pending;
    }

    /** The text parts of a message, one per line. */
    public static String text(List<UiPart> parts) {
        StringBuilder text = new StringBuilder();
        for (UiPart part : parts) {
            if (part instanceof UiPart.Text t && !t.text().isEmpty()) {
                if (!text.isEmpty()) {
                    text.append('\n');
                }
                text.append(t.text());
            }
        }
        return text.toString();
    }

    private static String arguments(JsonNode input) {
        if (input == null || input.isNull()) {
            return "{}";
        }
        return input.isTextual() ? input.asText() : Json.write(input);
    }

    /**
     * A denied call's result, as convertToModelMessages makes it ({@code execution-denied}, with the user's reason)
     * and the OpenAI and Bedrock providers send it: text that says the call was denied, and why when the user said.
     */
    public static String denied(UiPart.Approval approval) {
        String reason = approval == null || approval.reason() == null || approval.reason().isBlank() ? null : approval.reason().strip();
        return "The user denied this tool call (execution-denied)" + (reason == null ? "." : ": " + reason);
    }

    private static String result(UiPart.ToolCall call) {
        return switch (call.state()) {
            case "output-available" -> ToolResultText.of(call.output());
            case "output-denied", "approval-responded" -> denied(call.approval());
            default -> {
                ObjectNode error = Json.object();
                error.put("error", call.errorText());
                yield Json.write(error);
            }
        };
    }
}
