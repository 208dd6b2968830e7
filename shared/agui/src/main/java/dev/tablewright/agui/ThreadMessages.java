package dev.tablewright.agui;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.agent.AgentInput;
import dev.tablewright.agent.model.ModelMessage;
import dev.tablewright.door.BadRequest;
import dev.tablewright.door.DoorMessages;
import dev.tablewright.json.Json;

import java.util.ArrayList;
import java.util.List;

/** A thread's messages as the door kit reads them ({@link ThreadMessage}). */
public final class ThreadMessages implements DoorMessages<ThreadMessage> {

    public static final ThreadMessages FORM = new ThreadMessages();

    private ThreadMessages() {
    }

    @Override
    public String id(ThreadMessage message) {
        return message.id();
    }

    @Override
    public String role(ThreadMessage message) {
        return message.role();
    }

    @Override
    public String text(ThreadMessage message) {
        return message.text();
    }

    @Override
    public JsonNode json(ThreadMessage message) {
        return message.json();
    }

    @Override
    public ThreadMessage read(ObjectNode stored, String where) throws BadRequest {
        ThreadMessage message = ThreadMessage.read(stored);
        if (message == null) {
            throw new BadRequest(where, "not a message of an AG-UI thread");
        }
        return message;
    }

    @Override
    public Converted convert(List<ThreadMessage> messages) {
        List<ModelMessage> model = new ArrayList<>();
        messages.forEach(m -> model.addAll(m.model()));
        List<AgentInput.PendingCall> unanswered = new ArrayList<>();
        if (!messages.isEmpty() && messages.getLast().role().equals("assistant")) {
            for (ThreadMessage.Call c : messages.getLast().open()) {
                JsonNode arguments;
                try {
                    arguments = Json.parse(c.arguments());
                } catch (Exception e) {
                    arguments = Json.object();
                }
                unanswered.add(new AgentInput.PendingCall(c.id(), c.name(), arguments));
            }
        }
        return new Converted(model, unanswered);
    }
}
