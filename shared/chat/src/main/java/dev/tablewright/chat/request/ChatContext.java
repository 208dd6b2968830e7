package dev.tablewright.chat.request;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The page the chat sits beside: {@code page} (e.g. {@code tables}), the config being edited, and the builder's
 * current state ({@code TableBuilderState}); a client may send the Config wire format as {@code config} instead.
 */
public record ChatContext(String page, String configId, JsonNode state, JsonNode config) {

    public static final String TABLES = "tables";

    public static ChatContext tables() {
        return new ChatContext(TABLES, null, null, null);
    }
}
