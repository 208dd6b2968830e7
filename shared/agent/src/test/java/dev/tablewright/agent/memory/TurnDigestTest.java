package dev.tablewright.agent.memory;

import dev.tablewright.agent.model.ModelMessage;
import dev.tablewright.agent.model.ToolCallRequest;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TurnDigestTest {

    private static ModelMessage.Assistant calls(ToolCallRequest... calls) {
        return new ModelMessage.Assistant("", List.of(calls));
    }

    @Test
    void aTurnReadsAsWhatWasAskedWhatEachCallDidAndTheAnswer() {
        String digest = TurnDigest.of(List.of(
                new ModelMessage.System("you are a table assistant"),
                new ModelMessage.User("Add the  city\ncolumn"),
                calls(new ToolCallRequest("c1", "apply_column_change", "{}"), new ToolCallRequest("c2", "validate_table_config", "{}")),
                new ModelMessage.ToolResult("c1", "{\"valid\": true, \"config\": {}}"),
                new ModelMessage.ToolResult("c2", "{\"valid\": false}"),
                calls(new ToolCallRequest("c3", "preview_table_config", "{}")),
                new ModelMessage.ToolResult("c3", "{\"previewId\": \"prv_1\", \"config\": {\"name\": \"Warehouses\"}}"),
                calls(new ToolCallRequest("c4", "search_database_schema", "{}")),
                new ModelMessage.ToolResult("c4", "{\"error\": {\"code\": \"unknown_table\"}}"),
                new ModelMessage.ToolResult("c5", "not json"),
                new ModelMessage.Assistant("Added the city.", List.of())));
        assertEquals("The user asked: \"Add the city column\"; apply_column_change proposed a valid config, "
                + "validate_table_config found the config invalid, preview_table_config previewed the config as prv_1 (Warehouses), "
                + "search_database_schema failed (unknown_table), a tool answered; you answered: \"Added the city.\"", digest);
    }

    @Test
    void longTextIsCutAndNothingAskedSaysSo() {
        String asked = "a".repeat(TurnDigest.ASKED_CHARS + 10);
        String digest = TurnDigest.of(List.of(new ModelMessage.User(asked), new ModelMessage.Assistant("b".repeat(200), List.of())));
        assertTrue(digest.startsWith("The user asked: \"" + "a".repeat(TurnDigest.ASKED_CHARS - 1) + "…\""), digest);
        assertTrue(digest.endsWith("you answered: \"" + "b".repeat(TurnDigest.ANSWERED_CHARS - 1) + "…\""), digest);
        assertEquals("The user asked: (nothing)", TurnDigest.of(List.of()));
    }

    @Test
    void twoUserMessagesAreJoinedAndAnErrorWithoutCodeIsAFailure() {
        String digest = TurnDigest.of(List.of(new ModelMessage.User("first"), new ModelMessage.User("second"),
                calls(new ToolCallRequest("c1", "apply_sort_change", "{}")),
                new ModelMessage.ToolResult("c1", "{\"error\": {}}")));
        assertEquals("The user asked: \"first / second\"; apply_sort_change failed", digest);
    }
}
