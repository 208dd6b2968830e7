package dev.tablewright.config;

import dev.tablewright.json.Json;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ColumnSettingsJsonTest {

    /** isHidden() is a convenience; it must not make Jackson drop the stored "hidden" flag. */
    @Test
    void hiddenSurvivesARoundTrip() throws Exception {
        ColumnSettings read = Json.MAPPER.readValue("{\"type\":\"string\",\"hidden\":true}", ColumnSettings.class);
        assertTrue(read.isHidden());
        String written = Json.write(read);
        assertEquals("{\"type\":\"string\",\"hidden\":true}", written);
        assertEquals(read, Json.MAPPER.readValue(written, ColumnSettings.class));
    }
}
