package dev.tablewright.validation;

/**
 * Names that reach SQL (schemas, tables, columns, aliases) must be plain identifiers: {@code [A-Za-z_][A-Za-z0-9_]*},
 * at most 63 characters (PostgreSQL's NAMEDATALEN - 1). Values are data and never pass through here.
 */
public final class Identifiers {

    public static final int MAX_LENGTH = 63;
    /** Characters of a user's text quoted back in a message; the rest is elided (a 5 MB name stays out of answers). */
    private static final int QUOTE_CHARS = 60;

    private Identifiers() {
    }

    public static boolean isPlain(String name) {
        if (name == null || name.isEmpty() || name.length() > MAX_LENGTH) {
            return false;
        }
        char first = name.charAt(0);
        if (!(first == '_' || isAsciiLetter(first))) {
            return false;
        }
        for (int i = 1; i < name.length(); i++) {
            char c = name.charAt(i);
            if (!(c == '_' || isAsciiLetter(c) || (c >= '0' && c <= '9'))) {
                return false;
            }
        }
        return true;
    }

    /** Why {@code name} is not a plain identifier, or null if it is one. {@code what}: "column name", "alias", ... */
    public static String problem(String what, String name) {
        if (name == null || name.isEmpty()) {
            return what + " is missing";
        }
        if (name.length() > MAX_LENGTH) {
            return what + " " + quote(name) + " is " + name.length() + " characters long; at most " + MAX_LENGTH + " are allowed";
        }
        if (!isPlain(name)) {
            return what + " " + quote(name) + " is not a plain identifier (letters, digits and _, not starting with a digit)";
        }
        return null;
    }

    /** Checks {@code name} and records an error at {@code field}; true if it is a plain identifier. */
    public static boolean check(ValidationCollector out, String field, String what, String name) {
        String problem = problem(what, name);
        if (problem != null) {
            out.error(field, problem);
            return false;
        }
        return true;
    }

    /** {@code 'name'} for a message, shortened when long. */
    public static String quote(String text) {
        if (text == null) {
            return "null";
        }
        if (text.length() <= QUOTE_CHARS) {
            return "'" + text + "'";
        }
        return "'" + text.substring(0, QUOTE_CHARS) + "…' (" + text.length() + " chars)";
    }

    /** A map key as a path segment: {@code .key} when plain, {@code ["key"]} (shortened) otherwise. */
    public static String pathKey(String key) {
        if (isPlain(key)) {
            return "." + key;
        }
        String k = key == null ? "" : key;
        if (k.length() > QUOTE_CHARS) {
            k = k.substring(0, QUOTE_CHARS) + "…";
        }
        return "[\"" + k.replace("\\", "\\\\").replace("\"", "\\\"") + "\"]";
    }

    private static boolean isAsciiLetter(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    }
}
