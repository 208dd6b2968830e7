package dev.tablewright.functions.chat;

import dev.tablewright.http.stream.InMemoryResponseStream;
import dev.tablewright.aisdk.stream.UiMessageStreamReader;
import dev.tablewright.json.Json;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EchoChatTurnTest {

    @Test
    void echoesTheLastUserMessageAsAUiMessageStream() throws Exception {
        String body = "{\"id\":\"c1\",\"messages\":[{\"id\":\"u1\",\"role\":\"user\",\"parts\":[{\"type\":\"step-start\"},"
                + "{\"type\":\"text\",\"text\":\"add the warehouse name\"}]}],\"trigger\":\"submit-message\"}";
        var event = Json.object().put("body", body).put("isBase64Encoded", false);
        InMemoryResponseStream response = new InMemoryResponseStream();
        new EchoChatTurn().handle(event, response);
        UiMessageStreamReader.Parsed parsed = UiMessageStreamReader.parse(response.body());
        assertTrue(parsed.done());
        StringBuilder text = new StringBuilder();
        parsed.ofType("text-delta").forEach(p -> text.append(p.get("delta").asText()));
        assertEquals("add the warehouse name", text.toString());
        assertEquals("finish", parsed.types().getLast());
    }
}
