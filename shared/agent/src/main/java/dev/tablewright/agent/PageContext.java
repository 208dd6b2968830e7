package dev.tablewright.agent;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The page the chat sits beside: {@code page} (e.g. {@code tables}), the config being edited, and the builder's
 * current state ({@code TableBuilderState}); a client may send the Config wire format as {@code config} instead.
 */
public record PageContext(String page, String configId, JsonNode state, JsonNode config) {

    public static final String TABLES = "tables";

    public static PageContext tables() {
        return new PageContext(TABLES, null, null, null);
    }
}
