package dev.tablewright.agent;

import java.time.Duration;
import java.util.Map;

/**
 * Everything a turn is bounded by.
 *
 * @param maxSteps           model calls per turn
 * @param maxToolCallsPerStep tool calls run per step; the rest answer an error the model sees
 * @param maxRepairs         consecutive {@code valid: false} answers the model may try to repair
 * @param maxOutputTokens    per model call
 * @param maxTurnTokens      prompt + completion tokens over the whole turn; the turn stops at the next step boundary past it
 * @param maxTurnDuration    wall time of a turn
 * @param deadlineMargin     stop this long before the Lambda deadline, so the finish still reaches the client
 * @param modelAttempts      attempts per model call (429, 5xx and timeouts before the first byte are retried)
 * @param retryBackoff       first backoff; doubled each attempt, with jitter
 * @param maxOutputChars     characters of text and tool input the model may stream in one turn; a model that ignores
 *                           {@code maxOutputTokens} is cut off here, before it exhausts the function's memory
 */
public record TurnLimits(int maxSteps, int maxToolCallsPerStep, int maxRepairs, int maxOutputTokens, long maxTurnTokens,
                         Duration maxTurnDuration, Duration deadlineMargin, int modelAttempts, Duration retryBackoff, int maxOutputChars) {

    public static final TurnLimits DEFAULT = new TurnLimits(8, 4, 2, 2048, 200_000,
            Duration.ofSeconds(110), Duration.ofSeconds(3), 3, Duration.ofMillis(250), 256 * 1024);

    /** Overrides from the environment (TURN_MAX_STEPS, TURN_MAX_SECONDS, ...); absent ones keep the default. */
    public static TurnLimits fromEnvironment(Map<String, String> env) {
        return new TurnLimits(
                intOf(env, "TURN_MAX_STEPS", DEFAULT.maxSteps),
                intOf(env, "TURN_MAX_TOOL_CALLS_PER_STEP", DEFAULT.maxToolCallsPerStep),
                intOf(env, "TURN_MAX_REPAIRS", DEFAULT.maxRepairs),
                intOf(env, "TURN_MAX_OUTPUT_TOKENS", DEFAULT.maxOutputTokens),
                intOf(env, "TURN_MAX_TOKENS", (int) DEFAULT.maxTurnTokens),
                Duration.ofSeconds(intOf(env, "TURN_MAX_SECONDS", (int) DEFAULT.maxTurnDuration.toSeconds())),
                DEFAULT.deadlineMargin, intOf(env, "MODEL_ATTEMPTS", DEFAULT.modelAttempts), DEFAULT.retryBackoff,
                intOf(env, "TURN_MAX_OUTPUT_CHARS", DEFAULT.maxOutputChars));
    }

    public TurnLimits withMaxTurnDuration(Duration d) {
        return new TurnLimits(maxSteps, maxToolCallsPerStep, maxRepairs, maxOutputTokens, maxTurnTokens, d, deadlineMargin, modelAttempts, retryBackoff, maxOutputChars);
    }

    public TurnLimits withMaxSteps(int n) {
        return new TurnLimits(n, maxToolCallsPerStep, maxRepairs, maxOutputTokens, maxTurnTokens, maxTurnDuration, deadlineMargin, modelAttempts, retryBackoff, maxOutputChars);
    }

    public TurnLimits withMaxToolCallsPerStep(int n) {
        return new TurnLimits(maxSteps, n, maxRepairs, maxOutputTokens, maxTurnTokens, maxTurnDuration, deadlineMargin, modelAttempts, retryBackoff, maxOutputChars);
    }

    public TurnLimits withRetryBackoff(Duration d) {
        return new TurnLimits(maxSteps, maxToolCallsPerStep, maxRepairs, maxOutputTokens, maxTurnTokens, maxTurnDuration, deadlineMargin, modelAttempts, d, maxOutputChars);
    }

    public TurnLimits withMaxRepairs(int n) {
        return new TurnLimits(maxSteps, maxToolCallsPerStep, n, maxOutputTokens, maxTurnTokens, maxTurnDuration, deadlineMargin, modelAttempts, retryBackoff, maxOutputChars);
    }

    public TurnLimits withMaxOutputChars(int n) {
        return new TurnLimits(maxSteps, maxToolCallsPerStep, maxRepairs, maxOutputTokens, maxTurnTokens, maxTurnDuration, deadlineMargin, modelAttempts, retryBackoff, n);
    }

    private static int intOf(Map<String, String> env, String name, int fallback) {
        String v = env.get(name);
        if (v == null || v.isBlank()) {
            return fallback;
        }
        try {
            return Integer.parseInt(v.strip());
        } catch (NumberFormatException e) {
            throw new IllegalStateException(name + " must be a whole number");
        }
    }
}
