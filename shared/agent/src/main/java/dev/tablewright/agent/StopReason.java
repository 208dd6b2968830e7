package dev.tablewright.agent;

/** Why a turn ended: one value per way out of the loop; {@link #code} is what the turn's log line says. */
public enum StopReason {
    /** The model answered without a tool call. */
    COMPLETED("stop"),
    /** The model stopped at its own output limit for the step. */
    MODEL_LENGTH("length"),
    MAX_STEPS("max-steps"),
    TOKEN_BUDGET("token-budget"),
    OUTPUT_CAP("output-cap"),
    OUT_OF_TIME("out-of-time"),
    /** Tool calls wait for an answer from elsewhere: a client-side tool, or the user's input. */
    PAUSED("paused"),
    REPAIR_BOUND("repair-bound"),
    MODEL_ERROR("model-error"),
    /** Whoever asked for the turn went away before it ended. */
    CLIENT_GONE("client-gone"),
    /** The turn was asked to stop (its user pressed Stop, here or elsewhere): what was said so far is kept. */
    USER_STOPPED("stopped"),
    INTERNAL_ERROR("internal-error");

    private final String code;

    StopReason(String code) {
        this.code = code;
    }

    public String code() {
        return code;
    }
}
