package dev.tablewright.functions.chat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.agent.AgentEvent;
import dev.tablewright.http.stream.HttpResponseStream;
import dev.tablewright.aisdk.stream.UiMessageStreamWriter;
import dev.tablewright.json.Json;
import dev.tablewright.lambda.streaming.StreamingHandler;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * A stand-in turn that echoes the last user message's text word by word as a UI message stream: it exercises
 * the transport (runtime, prelude, SSE framing) without a model. The real turn is {@code ChatFunction}.
 */
public final class EchoChatTurn implements StreamingHandler {

    @Override
    public void handle(JsonNode event, HttpResponseStream response) throws Exception {
        String raw = event.path("body").asText("");
        if (event.path("isBase64Encoded").asBoolean(false)) {
            raw = new String(Base64.getDecoder().decode(raw), StandardCharsets.UTF_8);
        }
        JsonNode body = raw.isEmpty() ? Json.object() : Json.parse(raw);
        String text = lastUserText(body.path("messages"));
        UiMessageStreamWriter ui = new UiMessageStreamWriter(response);
        ui.start(AgentEvent.newId("msg"));
        ui.startStep();
        String id = AgentEvent.newId("txt");
        ui.textStart(id);
        for (String word : text.split("(?<= )")) {
            if (ui.isClientGone()) {
                return;
            }
            ui.textDelta(id, word);
        }
        ui.textEnd(id);
        ui.finishStep();
        ui.finish(dev.tablewright.aisdk.stream.UiChunk.FinishReason.STOP, null);
        ui.done();
    }

    private static String lastUserText(JsonNode messages) {
        for (int i = messages.size() - 1; i >= 0; i--) {
            JsonNode message = messages.get(i);
            if ("user".equals(message.path("role").asText())) {
                StringBuilder text = new StringBuilder();
                for (JsonNode part : message.path("parts")) {
                    if ("text".equals(part.path("type").asText())) {
                        text.append(part.path("text").asText());
                    }
                }
                return text.toString();
            }
        }
        return "";
    }
}
