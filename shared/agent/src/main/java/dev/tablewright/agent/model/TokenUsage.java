package dev.tablewright.agent.model;

/** Tokens the model reports for a step (zero when the endpoint does not report usage). */
public record TokenUsage(long promptTokens, long completionTokens) {

    public static final TokenUsage NONE = new TokenUsage(0, 0);

    public TokenUsage plus(TokenUsage other) {
        return new TokenUsage(promptTokens + other.promptTokens, completionTokens + other.completionTokens);
    }

    public long total() {
        return promptTokens + completionTokens;
    }
}
