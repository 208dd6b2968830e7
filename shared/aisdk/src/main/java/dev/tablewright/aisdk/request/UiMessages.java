package dev.tablewright.aisdk.request;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.door.DoorMessages;

import java.util.List;

/** UI messages as the door kit reads them: their ids, roles and text, their JSON as stored, their model messages. */
public final class UiMessages implements DoorMessages<UiMessage> {

    public static final UiMessages FORM = new UiMessages();

    private final ChatRequestParser parser = new ChatRequestParser();
    private final UiMessageConverter converter = new UiMessageConverter();

    private UiMessages() {
    }

    @Override
    public String id(UiMessage message) {
        return message.id();
    }

    @Override
    public String role(UiMessage message) {
        return message.role();
    }

    @Override
    public String text(UiMessage message) {
        return UiMessageConverter.text(message.parts());
    }

    @Override
    public JsonNode json(UiMessage message) {
        return message.json();
    }

    @Override
    public UiMessage read(ObjectNode stored, String where) throws BadChatRequest {
        return parser.message(stored, where);
    }

    @Override
    public Converted convert(List<UiMessage> messages) {
        return converter.convert(messages);
    }
}
