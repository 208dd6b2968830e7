package dev.tablewright.logging;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.json.Json;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TraceContextTest {

    @AfterEach
    void restore() {
        StructuredLog.redirect(System.out);
        StructuredLog.clear();
    }

    @Test
    void theXRayRootBecomesTheW3cTraceId() {
        TraceContext t = TraceContext.fromXRayHeader("Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1").orElseThrow();
        assertEquals("5759e988bd862e3fe1be46a994272793", t.traceId());
        assertEquals("00-5759e988bd862e3fe1be46a994272793-53995c3f42cd8ad8-01", t.traceparent());
        TraceContext unsampled = TraceContext.fromXRayHeader("Root=1-5759e988-bd862e3fe1be46a994272793;Sampled=0").orElseThrow();
        assertFalse(unsampled.sampled());
        assertTrue(unsampled.spanId().matches("[0-9a-f]{16}"));
        assertEquals(Optional.empty(), TraceContext.fromXRayHeader("Parent=53995c3f42cd8ad8"));
        assertEquals(Optional.empty(), TraceContext.fromXRayHeader("Root=2-xyz"));
    }

    @Test
    void aTraceparentRoundTripsAndABadOneIsIgnored() {
        TraceContext generated = TraceContext.generate();
        assertEquals(Optional.of(generated), TraceContext.parse(generated.traceparent()));
        TraceContext child = generated.child();
        assertEquals(generated.traceId(), child.traceId());
        assertNotEquals(generated.spanId(), child.spanId());
        for (String bad : new String[]{null, "", "garbage", "01-5759e988bd862e3fe1be46a994272793-53995c3f42cd8ad8-01",
                "00-00000000000000000000000000000000-53995c3f42cd8ad8-01", "00-5759e988bd862e3fe1be46a994272793-0000000000000000-01"}) {
            assertEquals(Optional.empty(), TraceContext.parse(bad), bad);
        }
    }

    @Test
    void theTraceIdIsOnEveryLineOfTheThreadAndAScopeRestoresTheCallersTrace() throws Exception {
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        StructuredLog.redirect(new PrintStream(buffer, true, StandardCharsets.UTF_8));
        StructuredLog log = StructuredLog.of(TraceContextTest.class);
        TraceContext turn = TraceContext.generate();
        TraceContext.begin(turn);
        log.info("in the turn");
        try (StructuredLog.Scope ignored = StructuredLog.scope()) {
            assertEquals(Optional.empty(), TraceContext.current());
            TraceContext.begin(turn.child());
            log.info("in the tool");
        }
        assertEquals(Optional.of(turn), TraceContext.current());
        log.info("back in the turn");
        String[] lines = buffer.toString(StandardCharsets.UTF_8).strip().split("\n");
        assertEquals(3, lines.length);
        for (String line : lines) {
            JsonNode node = Json.MAPPER.readTree(line);
            assertEquals(turn.traceId(), node.get("traceId").asText(), line);
        }
    }
}
