package dev.tablewright.conversation;

/**
 * One UI message as {@code useChat} keeps it ({@code id}, {@code role}, {@code parts}, optional {@code metadata}),
 * stored verbatim as JSON so a reload shows exactly what was streamed.
 */
public record StoredMessage(String id, String role, String json) {
}
