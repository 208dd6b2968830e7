package dev.tablewright.conversation;

/**
 * The table config a conversation is building, in the Config wire format, and where it came from.
 *
 * @param configJson the config (Config wire format JSON)
 * @param configId   the saved config it updates, or null for a config not saved yet
 * @param version    the saved version it builds on, or null
 * @param previewId  the pending preview, for {@link DraftSource#PENDING_PREVIEW}, else null
 */
public record WorkingDraft(String configJson, DraftSource source, String configId, Long version, String previewId) {
}
