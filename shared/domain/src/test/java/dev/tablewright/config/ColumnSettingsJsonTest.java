package dev.tablewright.config;

import dev.tablewright.codec.ConfigJson;
import dev.tablewright.json.Json;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ColumnSettingsJsonTest {

    /** isHidden() is a convenience; the stored "hidden" flag must survive the codec both ways. */
    @Test
    void hiddenSurvivesARoundTrip() throws Exception {
        String text = "{\"data_source\":[{\"schema\":\"sales\",\"source\":\"orders\"}],"
                + "\"visual_settings\":{\"columns\":{\"status\":{\"type\":\"string\",\"hidden\":true}}}}";
        TableConfig read = ConfigJson.readWritten(text);
        ColumnSettings status = read.visualSettings().columns().get("status");
        assertTrue(status.isHidden());
        String written = ConfigJson.writeString(read);
        assertEquals(Json.parse("{\"type\":\"string\",\"hidden\":true}"), Json.parse(written).at("/visual_settings/columns/status"));
        assertEquals(read, ConfigJson.readWritten(written));
    }
}
