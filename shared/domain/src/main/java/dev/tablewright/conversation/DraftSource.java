package dev.tablewright.conversation;

/** Where a conversation's working draft came from. */
public enum DraftSource {
    /** A tool's valid result (an operation tool's config, not yet previewed). */
    TOOL_RESULT,
    /** A preview waiting for the user's accept or reject ({@code previewId} set). */
    PENDING_PREVIEW,
    /** A saved config's version ({@code configId} and {@code version} set): loaded, or a preview accepted. */
    ACCEPTED_VERSION
}
