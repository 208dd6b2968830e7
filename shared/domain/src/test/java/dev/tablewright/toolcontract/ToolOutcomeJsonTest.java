package dev.tablewright.toolcontract;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.json.Json;
import dev.tablewright.validation.ValidationError;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A tool's answer crosses the envelope with its status and typed effect intact. */
class ToolOutcomeJsonTest {

    @Test
    void aPreviewKeepsItsIdAndConfigAcrossTheEnvelope() {
        ObjectNode output = Json.objectLiteral("{\"previewId\":\"prv_1\",\"config\":{\"name\":\"Stock\"},\"rows\":[]}");
        ObjectNode wire = ToolOutcomeJson.write(ToolOutcome.ok(output, new ToolEffect.Previewed("prv_1", output.get("config"))));
        assertEquals("ok", wire.path("status").asText());
        assertEquals("previewed", wire.path("effect").asText());
        ToolOutcome read = ToolOutcomeJson.read(wire);
        assertEquals(ToolOutcome.Status.OK, read.status());
        ToolEffect.Previewed previewed = assertInstanceOf(ToolEffect.Previewed.class, ((ToolOutcome.Ok) read).effect());
        assertEquals("prv_1", previewed.previewId());
        assertEquals("Stock", previewed.config().path("name").asText());
    }

    @Test
    void anInvalidConfigCarriesItsErrorsAndAPlainAnswerHasNoEffect() {
        ObjectNode invalid = Json.objectLiteral("{\"valid\":false,\"errors\":[{\"field\":\"value\",\"message\":\"bad\"}]}");
        ToolOutcome written = ToolOutcome.ok(invalid, new ToolEffect.InvalidConfig(List.of(new ValidationError("value", "bad"))));
        ToolEffect.InvalidConfig effect = assertInstanceOf(ToolEffect.InvalidConfig.class,
                ((ToolOutcome.Ok) ToolOutcomeJson.read(ToolOutcomeJson.write(written))).effect());
        assertEquals(List.of(new ValidationError("value", "bad")), effect.errors());
        ObjectNode plain = ToolOutcomeJson.write(ToolOutcome.ok(Json.object().put("tables", 3)));
        assertTrue(plain.path("effect").isMissingNode());
        assertInstanceOf(ToolEffect.None.class, ((ToolOutcome.Ok) ToolOutcomeJson.read(plain)).effect());
    }

    @Test
    void anAnswerWithoutAKnownStatusIsNoToolOutcome() {
        assertThrows(IllegalArgumentException.class, () -> ToolOutcomeJson.read(Json.objectLiteral("{\"output\":{}}")));
        assertThrows(IllegalArgumentException.class, () -> ToolOutcomeJson.read(Json.objectLiteral("{\"status\":\"fine\"}")));
    }
}
