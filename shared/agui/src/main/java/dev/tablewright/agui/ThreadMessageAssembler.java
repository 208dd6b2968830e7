package dev.tablewright.agui;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The assistant's message of a run, as it is stored: its text and its calls with their results, assembled from the
 * events the run streams (so what is stored is what the client saw). A resumed turn continues the message it resumes.
 */
public final class ThreadMessageAssembler implements Consumer<AgUiEvent> {

    private final String id;
    private final StringBuilder text;
    private final Map<String, ThreadMessage.Call> calls = new LinkedHashMap<>();
    private final Map<String, StringBuilder> arguments = new LinkedHashMap<>();

    /** A new message {@code id}, or ({@code continuing} not null) more of a stored one. */
    public ThreadMessageAssembler(String id, ThreadMessage continuing) {
        this.id = continuing == null ? id : continuing.id();
        this.text = new StringBuilder(continuing == null ? "" : continuing.text());
        if (continuing != null) {
            continuing.calls().forEach(c -> calls.put(c.id(), c));
        }
    }

    @Override
    public void accept(AgUiEvent event) {
        switch (event) {
            case AgUiEvent.TextMessageContent e -> text.append(e.delta());
            case AgUiEvent.TextMessageStart e -> {
                if (!text.isEmpty()) {
                    text.append("\n\n");
                }
            }
            case AgUiEvent.ToolCallStart e -> {
                calls.putIfAbsent(e.toolCallId(), new ThreadMessage.Call(e.toolCallId(), e.toolCallName(), "", null, null));
                arguments.put(e.toolCallId(), new StringBuilder());
            }
            case AgUiEvent.ToolCallArgs e -> arguments.computeIfAbsent(e.toolCallId(), k -> new StringBuilder()).append(e.delta());
            case AgUiEvent.ToolCallEnd e -> {
                ThreadMessage.Call c = calls.get(e.toolCallId());
                StringBuilder args = arguments.remove(e.toolCallId());
                if (c != null && args != null) {
                    calls.put(c.id(), new ThreadMessage.Call(c.id(), c.name(), args.isEmpty() ? "{}" : args.toString(), c.result(), c.resultMessageId()));
                }
            }
            case AgUiEvent.ToolCallResult e -> calls.computeIfPresent(e.toolCallId(), (k, c) -> c.answered(e.content(), e.messageId()));
            default -> {
            }
        }
    }

    /** The message as it now stands; null when the run said nothing and called nothing. */
    public ThreadMessage message() {
        if (text.isEmpty() && calls.isEmpty()) {
            return null;
        }
        return new ThreadMessage(id, "assistant", text.toString(), new ArrayList<>(calls.values()));
    }

    public List<ThreadMessage.Call> calls() {
        return List.copyOf(calls.values());
    }
}
