package dev.tablewright.mcpsession;

import com.fasterxml.jackson.databind.JsonNode;

import java.time.Instant;
import java.util.Objects;

/**
 * One MCP session (the {@code Mcp-Session-Id} a client got from {@code initialize}): whose it is, the protocol
 * revision agreed, and what the client said it can do. Any function instance serves it, so it lives in a store.
 *
 * @param clientCapabilities the {@code capabilities} object of the client's {@code initialize} (never null)
 * @param expiresAt          after this the session is unknown (and the store's TTL removes it)
 */
public record McpSession(String sessionId, String ownerId, String protocolVersion, JsonNode clientCapabilities,
                         String clientName, Instant createdAt, Instant expiresAt) {

    public McpSession {
        Objects.requireNonNull(sessionId, "sessionId");
        Objects.requireNonNull(ownerId, "ownerId");
        Objects.requireNonNull(protocolVersion, "protocolVersion");
        Objects.requireNonNull(clientCapabilities, "clientCapabilities");
        Objects.requireNonNull(createdAt, "createdAt");
        Objects.requireNonNull(expiresAt, "expiresAt");
    }

    /** Whether the client can answer form-mode elicitation (an empty {@code elicitation} object means form). */
    public boolean elicitsForms() {
        JsonNode elicitation = clientCapabilities.get("elicitation");
        if (elicitation == null || !elicitation.isObject()) {
            return false;
        }
        return elicitation.isEmpty() || elicitation.has("form");
    }

    /** Whether the client can answer URL-mode elicitation (declared as {@code elicitation.url}). */
    public boolean elicitsUrls() {
        JsonNode elicitation = clientCapabilities.get("elicitation");
        return elicitation != null && elicitation.has("url");
    }

    /** Usable by {@code ownerId} at {@code now}: another user's or an expired session reads as unknown. */
    public boolean usableBy(String ownerId, Instant now) {
        return this.ownerId.equals(ownerId) && now.isBefore(expiresAt);
    }
}
