package dev.tablewright.conversation;

import java.time.Instant;

/** One line of the conversation list; {@code configId} is the saved config its draft builds on, or null. */
public record ConversationSummary(String id, String title, Instant createdAt, Instant updatedAt, String configId) {
}
