package dev.tablewright.lambda.streaming.crossing;

import dev.tablewright.functions.chat.ChatFunction;

/** A streaming-runtime class that names one of the functions it runs: what {@code LayersTest} must refuse (used only by its self-check). */
public final class RuntimeThatKnowsTheChat {
    public Class<?> handler() {
        return ChatFunction.class;
    }
}
