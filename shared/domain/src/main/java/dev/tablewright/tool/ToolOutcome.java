package dev.tablewright.tool;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * What a tool Lambda answers (the tool invocation envelope, docs/tools.md): exactly one of {@code output} (status
 * ok), {@code request} (status needs_input) or {@code error} (status error); an ok answer may say what it did
 * ({@code effect}), which is what the chat acts on.
 */
public record ToolOutcome(String status, JsonNode output, UserInputRequirement request, ToolError error, String effect) {

    public static final String OK = "ok";
    public static final String NEEDS_INPUT = "needs_input";
    public static final String ERROR = "error";

    /** What an ok outcome did, for the chat to act on without reading the output's shape. */
    public static final String PROPOSED_CONFIG = "proposed_config";
    /** The config the tool was given or built is not valid: {@code output.errors} say why (the model repairs). */
    public static final String INVALID_CONFIG = "invalid_config";
    /** A preview of {@code output.config} was stored ({@code output.previewId}) for the user to accept or reject. */
    public static final String PREVIEWED = "previewed";

    public ToolOutcome(String status, JsonNode output, UserInputRequirement request, ToolError error) {
        this(status, output, request, error, null);
    }

    /** An answer that changes nothing of the conversation's config. */
    public static ToolOutcome ok(JsonNode output) {
        return new ToolOutcome(OK, output, null, null, null);
    }

    /** An answer that did {@code effect} ({@link #PROPOSED_CONFIG}, {@link #INVALID_CONFIG}, {@link #PREVIEWED}). */
    public static ToolOutcome ok(JsonNode output, String effect) {
        return new ToolOutcome(OK, output, null, null, effect);
    }

    public static ToolOutcome needsInput(UserInputRequirement request) {
        return new ToolOutcome(NEEDS_INPUT, null, request, null);
    }

    public static ToolOutcome error(String code, String message) {
        return new ToolOutcome(ERROR, null, null, new ToolError(code, message));
    }

    public static ToolOutcome error(ToolError error) {
        return new ToolOutcome(ERROR, null, null, error);
    }
}
