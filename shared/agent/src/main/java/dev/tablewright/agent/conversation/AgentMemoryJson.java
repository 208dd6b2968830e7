package dev.tablewright.agent.conversation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.agent.AgentResult;
import dev.tablewright.agent.DeferredCall;
import dev.tablewright.agent.PausedTurn;
import dev.tablewright.agent.memory.TranscriptJson;
import dev.tablewright.json.Json;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * What the agent keeps of a conversation, as one stored document: the transcript ({@link TranscriptJson}) and, when
 * the last turn paused, that turn ({@code "paused": {"turnKey", "calls": [{"id", "name", "waitingFor"}]}}, beside
 * the transcript's fields, which its reader ignores). A paused turn this version cannot read is none, never an error:
 * the door then finds the open calls on its own wire.
 */
final class AgentMemoryJson {

    private AgentMemoryJson() {
    }

    static String write(AgentResult result) {
        ObjectNode root = TranscriptJson.tree(result.transcript());
        result.paused().ifPresent(paused -> {
            ObjectNode p = root.putObject("paused").put("turnKey", paused.turnKey());
            ArrayNode calls = p.putArray("calls");
            paused.calls().forEach(c -> calls.addObject().put("id", c.toolCallId()).put("name", c.toolName())
                    .put("waitingFor", c.waitingFor().name().toLowerCase(Locale.ROOT)));
        });
        return Json.write(root);
    }

    /** The document read once: its transcript and its paused turn, each empty when absent or unreadable. */
    static ConversationMemory.AgentMemory read(String document) {
        if (document == null || document.isBlank()) {
            return ConversationMemory.AgentMemory.NONE;
        }
        JsonNode root;
        try {
            root = Json.parse(document);
        } catch (Exception e) {
            return ConversationMemory.AgentMemory.NONE;
        }
        return new ConversationMemory.AgentMemory(TranscriptJson.read(root), paused(root));
    }

    private static Optional<PausedTurn> paused(JsonNode root) {
        try {
            JsonNode paused = root.path("paused");
            if (!paused.isObject() || !paused.path("turnKey").isTextual()) {
                return Optional.empty();
            }
            List<DeferredCall> calls = new ArrayList<>();
            for (JsonNode c : paused.path("calls")) {
                calls.add(new DeferredCall(c.path("id").asText(), c.path("name").asText(),
                        DeferredCall.Waiting.valueOf(c.path("waitingFor").asText().toUpperCase(Locale.ROOT))));
            }
            return Optional.of(new PausedTurn(paused.path("turnKey").asText(), calls));
        } catch (Exception e) {
            return Optional.empty();
        }
    }
}
