package dev.tablewright.logging;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.json.Json;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Lines as Lambda's JSON log format reads them (a "level" and an RFC 3339 "timestamp"), filtered at the threshold. */
class StructuredLogTest {

    final ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    final StructuredLog log = StructuredLog.of(StructuredLogTest.class);

    @AfterEach
    void restore() {
        StructuredLog.redirect(System.out);
        StructuredLog.threshold("INFO");
        StructuredLog.clear();
    }

    List<JsonNode> lines() throws Exception {
        List<JsonNode> out = new ArrayList<>();
        for (String line : buffer.toString(StandardCharsets.UTF_8).split("\n")) {
            if (!line.isBlank()) {
                out.add(Json.MAPPER.readTree(line));
            }
        }
        return out;
    }

    @Test
    void linesBelowTheThresholdAreNotWritten() throws Exception {
        StructuredLog.redirect(new PrintStream(buffer, true, StandardCharsets.UTF_8));
        StructuredLog.threshold("warn");
        log.debug("d");
        log.info("i");
        log.warn("w");
        log.error("e", new IllegalStateException("x"));
        assertEquals(List.of("WARN", "ERROR"), lines().stream().map(l -> l.get("level").asText()).toList());

        buffer.reset();
        StructuredLog.threshold("DEBUG");
        log.debug("d", "count", 3);
        JsonNode line = lines().getFirst();
        assertEquals("DEBUG", line.get("level").asText());
        assertEquals(3, line.get("count").asInt());
        assertTrue(line.get("timestamp").asText().matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(\\.\\d+)?Z"), line.toString());
    }

    @Test
    void anUnknownLevelNameLeavesTheThresholdAsItWas() {
        StructuredLog.threshold("ERROR");
        StructuredLog.threshold("LOUD");
        assertTrue(StructuredLog.enabled("ERROR"));
        assertTrue(!StructuredLog.enabled("WARN"));
    }

    @Test
    void aScopeStartsEmptyAndPutsBackTheCallersContextWhenItCloses() throws Exception {
        StructuredLog.redirect(new PrintStream(buffer, true, StandardCharsets.UTF_8));
        StructuredLog.put("conversationId", "the-turns");
        try (StructuredLog.Scope ignored = StructuredLog.scope()) {
            log.info("inside");
            StructuredLog.put("toolCallId", "call_1");
        }
        log.info("after");
        List<JsonNode> lines = lines();
        assertTrue(lines.get(0).path("conversationId").isMissingNode(), lines.get(0).toString());
        assertEquals("the-turns", lines.get(1).path("conversationId").asText(), lines.get(1).toString());
        assertTrue(lines.get(1).path("toolCallId").isMissingNode(), "the scope's own keys go with it");
    }

    @Test
    void aKeyTheLineNamesItselfIsWrittenOnceWithTheLinesValue() {
        StructuredLog.redirect(new PrintStream(buffer, true, StandardCharsets.UTF_8));
        StructuredLog.put("conversationId", "from-the-context");
        StructuredLog.put("requestId", "req-1");
        log.info("recorded", "conversationId", "from-the-line");
        String line = buffer.toString(StandardCharsets.UTF_8).strip();
        // a JSON parser keeps one of two equal keys silently: count them in the text
        assertEquals(1, line.split("\"conversationId\"", -1).length - 1, line);
        assertTrue(line.contains("\"conversationId\":\"from-the-line\"") && line.contains("\"requestId\":\"req-1\""), line);
    }
}
