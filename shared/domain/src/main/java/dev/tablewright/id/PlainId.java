package dev.tablewright.id;

import java.util.regex.Pattern;

/**
 * The one rule for ids a client chooses (conversation ids, tool call ids) and the HTTP API's path ids: plain, short,
 * no separators that could reach a key or a log line oddly, so every id can be addressed through the routes.
 */
public final class PlainId {

    private static final Pattern PATTERN = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._:@-]{0,127}");

    /** What a valid id looks like, for error messages. */
    public static final String RULE = "1-128 letters, digits or . _ : @ - (starting with a letter or digit)";

    private PlainId() {
    }

    public static boolean isValid(String id) {
        return id != null && PATTERN.matcher(id).matches();
    }
}
