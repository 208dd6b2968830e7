package dev.tablewright.agent.testing;

import dev.tablewright.agent.model.ModelStreamListener;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** What a model's stream told its listener, one line per event: {@code text <delta>}, {@code start <id> <name>}, {@code args <id> <delta>}. */
public final class HeardStream implements ModelStreamListener {
    public final List<String> events = new CopyOnWriteArrayList<>();

    @Override
    public void textDelta(String delta) {
        events.add("text " + delta);
    }

    @Override
    public void toolCallStarted(String toolCallId, String toolName) {
        events.add("start " + toolCallId + " " + toolName);
    }

    @Override
    public void toolCallArgumentsDelta(String toolCallId, String delta) {
        events.add("args " + toolCallId + " " + delta);
    }
}
