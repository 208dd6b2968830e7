package dev.tablewright.systemtest.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.fakes.model.ModelScript;
import dev.tablewright.json.Json;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every message shape the real AI SDK (5.x, 6.x, 7.x) accepts from its own {@code validateUIMessages} is accepted by
 * the chat handler: a conversation holding such a part goes on, instead of answering 400 to every later message.
 */
class AiSdkMessageShapesTest {

    @AutoClose
    final ChatHarness chat = ChatHarness.overOperationTools();

    @Test
    void everyShapeTheAiSdkAcceptsTheChatAcceptsToo() throws Exception {
        JsonNode versions = AiSdkClient.messageShapes().path("versions");
        List<String> packages = new ArrayList<>();
        versions.forEach(v -> packages.add(v.path("version").asText()));
        assertTrue(packages.stream().anyMatch(v -> v.startsWith("5.")) && packages.stream().anyMatch(v -> v.startsWith("6."))
                && packages.stream().anyMatch(v -> v.startsWith("7.")), "ai 5.x, 6.x and 7.x: " + packages);

        List<String> refused = new ArrayList<>();
        int checked = 0;
        for (JsonNode version : versions) {
            for (JsonNode accepted : version.path("accepted")) {
                chat.model.enqueue(ModelScript.builder().say("Going on.").build());
                ObjectNode body = Json.object().put("id", "conv_shapes").put("trigger", "submit-message");
                body.set("messages", accepted.path("messages"));
                body.putObject("context").put("page", "tables");
                ChatHarness.Turn turn = chat.send(Json.write(body));
                checked++;
                Integer status = turn.response().statusCode();
                if (status == null || status != 200) {
                    refused.add("ai " + version.path("version").asText() + ", " + accepted.path("shape").asText() + ": "
                            + status + " " + turn.response().body());
                } else {
                    assertEquals("Going on.", turn.text());
                }
            }
        }
        assertEquals(List.of(), refused, String.join("\n", refused));
        assertTrue(checked >= 50, "shapes checked: " + checked);
        // the shape the audit found: ai 5.0.277 and 7.0.0 keep a malformed call as output-error with rawInput only
        JsonNode ai5 = versions.get(0);
        assertTrue(ai5.path("accepted").findValues("shape").stream().anyMatch(s -> s.asText().contains("rawInput and no input")),
                ai5.toString());
    }
}
