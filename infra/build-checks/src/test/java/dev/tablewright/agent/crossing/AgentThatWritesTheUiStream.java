package dev.tablewright.agent.crossing;

import dev.tablewright.aisdk.stream.UiMessageStreamWriter;

/** An agent class that writes a client protocol itself: what {@code LayersTest} must refuse (used only by its self-check). */
public final class AgentThatWritesTheUiStream {
    public Class<?> writer() {
        return UiMessageStreamWriter.class;
    }
}
