package dev.tablewright.mcpsession;

import java.util.Optional;

/**
 * Where MCP sessions live between invocations (DynamoDB in AWS). Unavailability is a
 * {@link dev.tablewright.store.StoreUnavailableException}.
 */
public interface McpSessionStore {

    /** Stores a new session; ids are random, so an existing id is a bug, never an overwrite. */
    void create(McpSession session);

    /** The session as stored, whoever owns it and expired or not: the caller decides what is usable. */
    Optional<McpSession> find(String sessionId);

    /** Deletes the owner's session; false when there was none of that owner's. */
    boolean delete(String ownerId, String sessionId);
}
