package dev.tablewright.agui;

import dev.tablewright.failure.ErrorCode;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ResumeRulesTest {

    static final Instant NOW = Instant.parse("2026-12-01T10:00:00Z");
    static final AgUiEvent.Interrupt KEEP = new AgUiEvent.Interrupt("i1", "tool_call", null, "c1", null, NOW.plusSeconds(60), null);
    static final AgUiEvent.Interrupt FORM = new AgUiEvent.Interrupt("i2", "input_required", null, "c2", null, null, null);

    static RunAgentInput.Resume resolved(String id) {
        return new RunAgentInput.Resume(id, RunAgentInput.Resume.Status.RESOLVED, null);
    }

    static Optional<ResumeRules.Broken> check(List<AgUiEvent.Interrupt> open, RunAgentInput.Resume... resume) {
        return ResumeRules.check(open, List.of(resume), id -> id.equals("i0") ? Optional.of("kept") : Optional.empty(), NOW);
    }

    @Test
    void aResumeThatAnswersEveryOpenInterruptOncePasses() {
        assertTrue(check(List.of(KEEP, FORM), resolved("i2"), resolved("i1")).isEmpty());
        assertTrue(check(List.of()).isEmpty(), "no interrupts, no resume");
    }

    @Test
    void eachBrokenRuleIsNamed() {
        assertEquals(ErrorCode.INVALID_REQUEST, check(List.of(KEEP)).orElseThrow().code(), "open interrupts, no resume");
        assertTrue(check(List.of(KEEP, FORM), resolved("i1")).orElseThrow().message().contains("i2"), "partial");
        assertEquals(ErrorCode.NOT_FOUND, check(List.of(KEEP), resolved("forged")).orElseThrow().code(), "never issued");
        assertEquals(ErrorCode.NOT_FOUND, check(List.of(), resolved("forged")).orElseThrow().code(), "nothing open");
        ResumeRules.Broken again = check(List.of(), resolved("i0")).orElseThrow();
        assertEquals(ErrorCode.CONFLICT, again.code());
        assertTrue(again.message().contains("already answered (kept)"), again.message());
        assertEquals(ErrorCode.INVALID_REQUEST, check(List.of(KEEP), resolved("i1"), resolved("i1")).orElseThrow().code(), "twice");
        AgUiEvent.Interrupt expired = new AgUiEvent.Interrupt("i3", "tool_call", null, "c3", null, NOW, null);
        assertTrue(check(List.of(expired), resolved("i3")).orElseThrow().message().contains("no longer"));
        assertTrue(check(List.of(expired)).isEmpty(), "what can no longer be answered is not waited on");
    }
}
