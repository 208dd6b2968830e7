package dev.tablewright.functions.crossing;

import dev.tablewright.fakes.model.ScriptedModelServer;

/** A function class that reaches for a development fake: what {@code LayersTest} must refuse (used only by its self-check). */
public final class FunctionThatStartsAFakeModel {
    public Class<?> model() {
        return ScriptedModelServer.class;
    }
}
