package dev.tablewright.codec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.config.TableBuilderState;
import dev.tablewright.json.JsonFields;

import java.util.List;

/**
 * The reader of the builder page's own state ({@link TableBuilderState}, camelCase), as the chat request carries it in
 * {@code context.state}. Keys it does not know are the page's and are left alone; a value of the wrong type makes
 * the state unreadable.
 */
public final class TableBuilderStateJson {

    private TableBuilderStateJson() {
    }

    /** @throws IllegalArgumentException naming the first value of the wrong type */
    public static TableBuilderState read(JsonNode state) {
        if (state == null || !state.isObject()) {
            throw new IllegalArgumentException("the builder state must be a JSON object");
        }
        JsonFields s = JsonFields.of((ObjectNode) state, "", JsonFields.STOP_AT_FIRST, JsonFields.Wording.PLAIN);
        try {
            JsonFields base = s.at("baseTable");
            return new TableBuilderState(base == null ? null : new TableBuilderState.BaseTable(base.text("schema"), base.text("table")),
                    list(s.objects("dataSources", d -> new TableBuilderState.JoinedTable(d.text("schema"), d.text("table"),
                            d.text("alias")))),
                    list(s.objects("columns", c -> new TableBuilderState.Column(c.text("column"), c.text("table"),
                            c.text("alias"), c.text("type"), c.text("format"), c.text("header"), c.int32("order"), c.bool("hidden")))),
                    list(s.objects("filters", f -> new TableBuilderState.FilterRule(f.text("column"), f.text("operator"),
                            f.value("value"), f.text("label")))),
                    list(s.objects("joins", j -> new TableBuilderState.Join(j.text("alias"), j.text("joinType"),
                            j.text("relationshipFrom"), j.text("relationshipTo")))),
                    list(s.objects("sortBy", r -> new TableBuilderState.SortRule(r.text("column"), r.text("direction")))));
        } catch (JsonFields.Refused refused) {
            throw new IllegalArgumentException("the builder state is not readable: " + refused.path() + ": " + refused.getMessage());
        }
    }

    private static <T> List<T> list(List<T> items) {
        return items == null ? List.of() : items;
    }
}
