package dev.tablewright.lambda;

import dev.tablewright.userinput.InputRequestService;

import java.time.Duration;
import java.util.Map;

/**
 * Parsing of settings a function was given (from its environment, where it is wired): a value that cannot be used
 * stops the function at init with a message naming the variable, never a bare NumberFormatException.
 */
public final class Settings {

    private Settings() {
    }

    /** A positive whole number: {@code value}, or {@code fallback} when it is unset or blank. */
    public static long positive(String name, String value, long fallback) {
        if (value == null || value.isBlank()) {
            return fallback;
        }
        try {
            long n = Long.parseLong(value.strip());
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // refused below
        }
        throw new IllegalStateException("environment variable " + name + " must be a positive whole number");
    }

    /**
     * How long input requests and saved values live, for every function that creates them: {@code INPUT_REQUEST_TTL_HOURS}
     * and {@code SAVED_VALUES_TTL_DAYS}, else {@link InputRequestService.Expiry#DEFAULT}.
     */
    public static InputRequestService.Expiry inputRequestExpiry(Map<String, String> env) {
        InputRequestService.Expiry d = InputRequestService.Expiry.DEFAULT;
        return new InputRequestService.Expiry(
                Duration.ofHours(positive("INPUT_REQUEST_TTL_HOURS", env.get("INPUT_REQUEST_TTL_HOURS"), d.requestTtl().toHours())),
                Duration.ofDays(positive("SAVED_VALUES_TTL_DAYS", env.get("SAVED_VALUES_TTL_DAYS"), d.valuesTtl().toDays())));
    }
}
