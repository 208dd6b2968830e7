package dev.tablewright.tool;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * What a tool answers (the tool invocation envelope, docs/tools.md): its {@link Status}, and exactly one of
 * {@code output} (ok), {@code request} (needs input) or {@code error} (error); an ok answer says what it did to the
 * config as a typed {@link ToolEffect}, which is what the agent acts on.
 */
public record ToolOutcome(Status status, JsonNode output, UserInputRequirement request, ToolError error, ToolEffect effect) {

    /** The answer's kind; {@link #wireName} is the envelope's {@code status}. */
    public enum Status {
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

    public ToolOutcome {
        effect = effect == null ? ToolEffect.NONE : effect;
    }

    /** An answer that changes nothing of the conversation's config. */
    public static ToolOutcome ok(JsonNode output) {
        return new ToolOutcome(Status.OK, output, null, null, ToolEffect.NONE);
    }

    /** An operation tool's answer: a valid config proposed ({@code output.config}), or an invalid one ({@code output.errors}). */
    public static ToolOutcome operated(JsonNode output, boolean valid) {
        return new ToolOutcome(Status.OK, output, null, null,
                ToolEffect.of(valid ? "proposed_config" : "invalid_config", output));
    }

    /** A preview of {@code output.config} stored as {@code output.previewId}. */
    public static ToolOutcome previewed(JsonNode output) {
        return new ToolOutcome(Status.OK, output, null, null, ToolEffect.of("previewed", output));
    }

    public static ToolOutcome needsInput(UserInputRequirement request) {
        return new ToolOutcome(Status.NEEDS_INPUT, null, request, null, ToolEffect.NONE);
    }

    public static ToolOutcome error(String code, String message) {
        return error(new ToolError(code, message));
    }

    public static ToolOutcome error(ToolError error) {
        return new ToolOutcome(Status.ERROR, null, null, error, ToolEffect.NONE);
    }
}
