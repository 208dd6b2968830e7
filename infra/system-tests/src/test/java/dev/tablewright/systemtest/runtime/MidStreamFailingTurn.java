package dev.tablewright.systemtest.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.lambda.streaming.StreamingHandler;
import dev.tablewright.http.stream.HttpResponseStream;
import dev.tablewright.aisdk.stream.UiMessageStreamWriter;
import dev.tablewright.json.Json;

/**
 * A test-only chat handler that fails the way a bug would: after its first events ({@code "when":"mid-stream"},
 * the default) or before any byte ({@code "when":"before-first-byte"}). Shipped to the process in a side jar.
 */
public class MidStreamFailingTurn implements StreamingHandler {

    @Override
    public void handle(JsonNode event, HttpResponseStream response) throws Exception {
        JsonNode body = Json.parse(event.path("body").asText("{}"));
        if ("before-first-byte".equals(body.path("when").asText())) {
            throw new IllegalStateException("broken before the first byte");
        }
        UiMessageStreamWriter ui = new UiMessageStreamWriter(response);
        ui.start("msg_fail");
        ui.startStep();
        ui.textStart("t1");
        ui.textDelta("t1", "Working on it");
        throw new IllegalStateException("the model vanished");
    }
}
