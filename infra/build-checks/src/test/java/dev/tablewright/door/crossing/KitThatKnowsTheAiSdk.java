package dev.tablewright.door.crossing;

import dev.tablewright.aisdk.stream.UiMessageStreamWriter;

/** A door kit class that reaches into a door: what {@code LayersTest} must refuse (used only by its self-check). */
public final class KitThatKnowsTheAiSdk {
    public Class<?> writer() {
        return UiMessageStreamWriter.class;
    }
}
