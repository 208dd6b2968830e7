package dev.tablewright.agent.model;

import dev.tablewright.agent.testing.HeardStream;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ToolCallAccumulatorTest {

    /** What the listener heard, one line per event. */
    private final HeardStream listener = new HeardStream();
    private final List<String> heard = listener.events;

    @Test
    void aCallIsAnnouncedOnceItsNameIsKnownWithTheArgumentsThatCameBefore() throws Exception {
        ToolCallAccumulator calls = new ToolCallAccumulator(listener);
        calls.identify(0, "call_a", null);
        calls.arguments(0, "{\"op\":");
        calls.identify(0, "call_other", "apply_sort_change"); // the first id given wins
        calls.arguments(0, "\"set\"}");
        calls.identify(1, "call_b", "search_tools");

        assertEquals(List.of("start call_a apply_sort_change", "args call_a {\"op\":", "args call_a \"set\"}",
                "start call_b search_tools"), heard);
        assertEquals(List.of(new ToolCallRequest("call_a", "apply_sort_change", "{\"op\":\"set\"}"),
                new ToolCallRequest("call_b", "search_tools", "{}")), calls.calls("{}"));
    }
}
