package dev.tablewright.codec;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.config.ConfigDiff;
import dev.tablewright.json.Json;

import java.util.List;

/**
 * The one writer of a {@link ConfigDiff}, as a preview shows it: {@code columns}, {@code joins}, {@code filters} and
 * {@code sorts}, each {@code {added, removed, changed: [{key, changes}]}}, then the {@code settings} lines.
 */
public final class ConfigDiffJson {

    private ConfigDiffJson() {
    }

    public static ObjectNode write(ConfigDiff diff) {
        ObjectNode o = Json.object();
        o.set("columns", write(diff.columns()));
        o.set("joins", write(diff.joins()));
        o.set("filters", write(diff.filters()));
        o.set("sorts", write(diff.sorts()));
        o.set("settings", texts(diff.settings()));
        return o;
    }

    private static ObjectNode write(ConfigDiff.Section section) {
        ObjectNode o = Json.object();
        o.set("added", texts(section.added()));
        o.set("removed", texts(section.removed()));
        ArrayNode changed = o.putArray("changed");
        for (ConfigDiff.Change c : section.changed()) {
            changed.addObject().put("key", c.key()).set("changes", texts(c.changes()));
        }
        return o;
    }

    private static ArrayNode texts(List<String> values) {
        ArrayNode out = Json.MAPPER.createArrayNode();
        values.forEach(out::add);
        return out;
    }
}
