package dev.tablewright.aisdk.request;

import dev.tablewright.door.BadRequest;

/** A chat request the turn cannot take: answered 400 with the offending field and a plain message. */
public final class BadChatRequest extends BadRequest {

    public BadChatRequest(String field, String message) {
        super(field, message);
    }
}
