package dev.tablewright.lambda;

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
}
