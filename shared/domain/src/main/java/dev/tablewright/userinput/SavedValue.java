package dev.tablewright.userinput;

import dev.tablewright.toolcontract.ValueScope;

import java.time.Instant;

/** A value the user gave once and the executor reuses: for the conversation, or for the user across conversations. */
public record SavedValue(String name, String value, boolean secret, ValueScope scope, String toolName,
                         String toolCallId, Instant savedAt, Instant expiresAt) {

    /** User-scoped values live until the user clears them: no expiry. */
    public boolean liveAt(Instant now) {
        return expiresAt == null || now.isBefore(expiresAt);
    }
}
