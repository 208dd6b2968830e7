package dev.tablewright.agent.model;

/**
 * Why the model ended a step, in the agent's terms: each provider maps its own reasons to these
 * ({@code OpenAiChatModel}, {@code BedrockChatModel}). {@link #wireName} is the name traces carry
 * ({@code gen_ai.response.finish_reasons}).
 */
public enum FinishReason {
    /** The model finished its answer. */
    STOP("stop"),
    /** The model asked for tool calls. */
    TOOL_CALLS("tool_calls"),
    /** The step hit the model's output limit (or its context window). */
    LENGTH("length"),
    /** A content filter or guardrail ended the answer. */
    CONTENT_FILTER("content_filter"),
    /** Any other reason a provider gives. */
    OTHER("other");

    private final String wireName;

    FinishReason(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }
}
