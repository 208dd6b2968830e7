package dev.tablewright.editable;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EditableStatusTest {

    private final EditableStatus status = TableSettingsFields.of("cfg_orders", "Active orders", null, 25);

    @Test
    void aValidUpdateAnswersPreviousAndNewValueAndChangesTheStatus() {
        EditableStatus.Result r = status.update("page_size", " 50 ");
        assertTrue(r.update().success());
        assertEquals("25", r.update().previousValue());
        assertEquals("50", r.update().newValue());
        assertEquals("50", r.status().fields().get("page_size").value());
        assertEquals("25", status.fields().get("page_size").value(), "the original status is unchanged");
    }

    @Test
    void outOfRangeFractionalAndNonNumericPageSizesAreRefusedWithTheValueUnchanged() {
        for (String bad : new String[]{"0", "501", "12.5", "lots", "1e400"}) {
            EditableStatus.Result r = status.update("page_size", bad);
            assertFalse(r.update().success(), bad);
            assertEquals("25", r.update().newValue(), bad);
            assertTrue(r.update().error().contains("page_size"), r.update().error());
            assertEquals("25", r.status().fields().get("page_size").value());
        }
    }

    @Test
    void readOnlyUnknownEmptyAndTooLongAreRefused() {
        assertEquals("Field 'config_id' is read-only", status.update("config_id", "x").update().error());
        assertTrue(status.update("colour", "red").update().error().startsWith("Unknown editable field: colour"));
        assertTrue(status.update("name", "  ").update().error().contains("cannot be empty"));
        assertTrue(status.update("name", "x".repeat(81)).update().error().contains("at most 80 characters"));
    }

    @Test
    void aNullableFieldCanBeClearedAndDependsOnIsEnforced() {
        EditableStatus noName = TableSettingsFields.of("c", null, "d", 10);
        EditableStatus.Result r = noName.update("description", "Open orders");
        assertFalse(r.update().success());
        assertTrue(r.update().error().contains("depends on 'name'"), r.update().error());

        EditableStatus.Result cleared = status.update("name", "Orders").status().update("description", null);
        assertTrue(cleared.update().success());
        assertNull(cleared.update().newValue());
    }

    @Test
    void theRenderedBlockDescribesTypeConstraintDependenciesAndReadOnly() {
        String block = status.render();
        assertTrue(block.contains("- name: \"Active orders\" [string, 1 to 80 characters]"), block);
        assertTrue(block.contains("- description: (not set) [string, at most 500 characters, may be cleared, depends on name]"), block);
        assertTrue(block.contains("- page_size: 25 [number, whole number between 1 and 500]"), block);
        assertTrue(block.contains("config_id: \"cfg_orders\" [string, set by the page, read-only]"), block);
    }
}
