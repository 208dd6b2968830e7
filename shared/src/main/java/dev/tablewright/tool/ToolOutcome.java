package dev.tablewright.tool;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;

/**
 * What a tool Lambda answers (docs/design.md, "Tool invocation envelope"): exactly one of
 * {@code output} (status ok), {@code request} (status needs_input) or {@code error} (status error).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ToolOutcome(String status, JsonNode output, UserInputRequirement request, ToolError error) {

    public static final String OK = "ok";
    public static final String NEEDS_INPUT = "needs_input";
    public static final String ERROR = "error";

    public static ToolOutcome ok(JsonNode output) {
        return new ToolOutcome(OK, output, null, null);
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
