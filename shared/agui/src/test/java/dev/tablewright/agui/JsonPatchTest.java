package dev.tablewright.agui;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.json.Json;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;

class JsonPatchTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "{\"workingConfig\":null,\"preview\":null}|{\"workingConfig\":{\"name\":\"A\",\"cols\":[1,2]},\"preview\":null}|1",
            "{\"workingConfig\":{\"name\":\"A\",\"cols\":[1,2]},\"preview\":null}|{\"workingConfig\":{\"name\":\"B\",\"cols\":[1]},\"preview\":null}|2",
            "{\"a\":{\"x/y\":1,\"m~n\":2,\"gone\":true}}|{\"a\":{\"x/y\":3,\"m~n\":2,\"new\":[]}}|3",
            "{\"a\":1}|{\"a\":1}|0",
            "{\"a\":[1]}|{\"a\":{\"b\":1}}|1",
    })
    void theDiffAppliedToTheFirstGivesTheSecond(String from, String to, int operations) throws Exception {
        JsonNode a = Json.parse(from);
        JsonNode b = Json.parse(to);
        ArrayNode patch = JsonPatch.diff(a, b);
        assertEquals(operations, patch.size(), patch.toString());
        assertEquals(b, apply(a, patch));
    }

    /** RFC 6902's add, remove and replace, applied as the spec says (the ops the diff makes). */
    static JsonNode apply(JsonNode document, ArrayNode patch) {
        JsonNode doc = document.deepCopy();
        for (JsonNode op : patch) {
            String path = op.get("path").asText();
            if (path.isEmpty()) {
                doc = op.get("value").deepCopy();
                continue;
            }
            int slash = path.lastIndexOf('/');
            ObjectNode parent = (ObjectNode) doc.at(path.substring(0, slash));
            String name = path.substring(slash + 1).replace("~1", "/").replace("~0", "~");
            switch (op.get("op").asText()) {
                case "add", "replace" -> parent.set(name, op.get("value").deepCopy());
                case "remove" -> parent.remove(name);
                default -> throw new AssertionError(op.toString());
            }
        }
        return doc;
    }
}
