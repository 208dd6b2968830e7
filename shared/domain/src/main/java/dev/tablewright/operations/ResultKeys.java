package dev.tablewright.operations;

import dev.tablewright.validation.Identifiers;

import java.util.Locale;

/** Turning names into headers and display text into identifiers. */
final class ResultKeys {

    private ResultKeys() {
    }

    /** {@code created_at} → {@code Created At}; {@code id} → {@code ID}. */
    static String header(String key) {
        StringBuilder out = new StringBuilder();
        for (String part : key.split("_")) {
            if (part.isEmpty()) {
                continue;
            }
            if (!out.isEmpty()) {
                out.append(' ');
            }
            if (part.equalsIgnoreCase("id")) {
                out.append("ID");
            } else {
                out.append(Character.toUpperCase(part.charAt(0))).append(part.substring(1));
            }
        }
        return out.isEmpty() ? key : out.toString();
    }

    /** {@code Created At} → {@code created_at}; null if no plain identifier can be made of it. */
    static String identifierOf(String text) {
        if (text == null || text.length() > 200) {
            return null;
        }
        StringBuilder out = new StringBuilder();
        boolean underscore = false;
        for (int i = 0; i < text.length(); i++) {
            char c = Character.toLowerCase(text.charAt(i));
            if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
                out.append(c);
                underscore = false;
            } else if (!underscore && !out.isEmpty()) {
                out.append('_');
                underscore = true;
            }
        }
        while (!out.isEmpty() && out.charAt(out.length() - 1) == '_') {
            out.setLength(out.length() - 1);
        }
        String id = out.toString().toLowerCase(Locale.ROOT);
        return Identifiers.isPlain(id) ? id : null;
    }

    /** {@code prefix_name}, or null when that would not be a plain identifier (too long). */
    static String joined(String prefix, String name) {
        String id = prefix + "_" + name;
        return Identifiers.isPlain(id) ? id : null;
    }
}
