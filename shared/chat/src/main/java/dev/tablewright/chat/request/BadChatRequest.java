package dev.tablewright.chat.request;

/** A request the chat turn cannot take: answered 400 with the offending field and a plain message. */
public final class BadChatRequest extends Exception {

    private final String field;

    public BadChatRequest(String field, String message) {
        super(message, null, false, false);
        this.field = field;
    }

    public String field() {
        return field;
    }
}
