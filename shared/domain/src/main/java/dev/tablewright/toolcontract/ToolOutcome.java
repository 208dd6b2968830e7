package dev.tablewright.toolcontract;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.failure.ErrorCode;

/**
 * What a tool answers (the tool invocation envelope, docs/tools.md): exactly one of an answer ({@link Ok}, with the
 * typed {@link ToolEffect} the tool says it had on the config, which is what the agent acts on), a question for the
 * user ({@link NeedsInput}) or a failure ({@link Failed}). {@link #status} is the envelope's {@code status}.
 */
public sealed interface ToolOutcome permits ToolOutcome.Ok, ToolOutcome.NeedsInput, ToolOutcome.Failed {

    /** The answer's kind; {@link #wireName} is the envelope's {@code status}. */
    enum Status {
        OK("ok"), NEEDS_INPUT("needs_input"), ERROR("error");

        private final String wireName;

        Status(String wireName) {
            this.wireName = wireName;
        }

        public String wireName() {
            return wireName;
        }

        /** @throws IllegalArgumentException for a name that is none of the three */
        public static Status fromWire(String name) {
            for (Status s : values()) {
                if (s.wireName.equals(name)) {
                    return s;
                }
            }
            throw new IllegalArgumentException("must be ok, needs_input or error");
        }
    }

    Status status();

    /** The tool answered {@code output} (null when it answered nothing) and had {@code effect} on the config. */
    record Ok(JsonNode output, ToolEffect effect) implements ToolOutcome {
        public Ok {
            effect = effect == null ? ToolEffect.NONE : effect;
        }

        @Override
        public Status status() {
            return Status.OK;
        }
    }

    /** The tool needs values only the user can give before it can run. */
    record NeedsInput(UserInputRequirement request) implements ToolOutcome {
        @Override
        public Status status() {
            return Status.NEEDS_INPUT;
        }
    }

    /** The tool refused or failed; {@code error} says why, with a code of docs/errors.md. */
    record Failed(ToolError error) implements ToolOutcome {
        public Failed {
            error = error == null ? new ToolError(null, "the tool failed") : error;
        }

        @Override
        public Status status() {
            return Status.ERROR;
        }
    }

    /** An answer that changes nothing of the conversation's config. */
    static ToolOutcome ok(JsonNode output) {
        return new Ok(output, ToolEffect.NONE);
    }

    /** An answer with what it did to the config, as the tool knows it (never read back from the output). */
    static ToolOutcome ok(JsonNode output, ToolEffect effect) {
        return new Ok(output, effect);
    }

    static ToolOutcome needsInput(UserInputRequirement request) {
        return new NeedsInput(request);
    }

    static ToolOutcome error(ErrorCode code, String message) {
        return error(new ToolError(code, message));
    }

    static ToolOutcome error(ToolError error) {
        return new Failed(error);
    }
}
