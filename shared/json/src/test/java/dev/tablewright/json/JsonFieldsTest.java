package dev.tablewright.json;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

class JsonFieldsTest {

    private final List<String> problems = new ArrayList<>();

    private JsonFields read(String json, JsonFields.Wording wording) {
        return JsonFields.of(Json.objectLiteral(json), "", (path, message) -> problems.add(path + ": " + message), wording);
    }

    @Test
    void everyWrongTypeIsAProblemOnItsPathAndReadingGoesOn() {
        JsonFields fields = read("""
                {"name": 5, "version": 1.5, "hidden": "yes", "select": {"columns": [{"name": "id"}, 7, {"name": []}]},
                 "absent": null, "extra": true}""", JsonFields.Wording.PLAIN);
        assertNull(fields.text("name"));
        assertNull(fields.integer("version"));
        assertNull(fields.bool("hidden"));
        assertNull(fields.text("absent"), "null reads as absent, without a problem");
        List<String> names = fields.at("select").objects("columns", column -> column.text("name"));
        assertEquals(java.util.Arrays.asList("id", null), names, "an element that is not an object is skipped");
        assertEquals(List.of(
                "name: expected a string, got a number",
                "version: expected an integer, got a non-integral or too large number",
                "hidden: expected true or false, got a string",
                "select.columns[1]: expected an object, got a number",
                "select.columns[2].name: expected a string, got an array"), problems);
        assertEquals(Set.of("extra", "absent"), fields.unknown(Set.of("name", "version", "hidden", "select")).keySet());
    }

    @Test
    void namedArgumentsSayWhichFieldIsWrongAndLongTextIsBounded() {
        JsonFields fields = JsonFields.of((ObjectNode) Json.objectLiteral("{\"filter\": {\"column\": 3, \"label\": \"abcdef\"}}")
                .get("filter"), "filter", (path, message) -> problems.add(path + ": " + message), JsonFields.Wording.NAMED);
        assertNull(fields.text("column"));
        assertNull(fields.text("label", 5));
        assertEquals("abcdef", fields.text("label", 6));
        assertEquals(List.of("filter.column: column must be a string, got a number",
                "filter.label: label is 6 characters long; at most 5 are accepted"), problems);
    }

    @Test
    void stopAtFirstThrowsTheFirstProblemWithItsPath() {
        JsonFields fields = JsonFields.of(Json.objectLiteral("{\"tool\": [1], \"userId\": 2}"), "", JsonFields.STOP_AT_FIRST,
                JsonFields.Wording.NAMED);
        JsonFields.Refused refused = assertThrows(JsonFields.Refused.class, () -> fields.text("tool"));
        assertEquals("tool", refused.path());
        assertEquals("tool must be a string, got an array", refused.getMessage());
    }
}
