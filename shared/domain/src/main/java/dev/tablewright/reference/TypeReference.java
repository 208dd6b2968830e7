package dev.tablewright.reference;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.json.Json;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The static type reference {@code discover_table_reference} answers: PostgreSQL type → visual type, the
 * format options of each visual type, and the filter operators valid for each. Built once.
 */
public final class TypeReference {

    private static final ObjectNode DOCUMENT = build();

    private TypeReference() {
    }

    /** The whole reference as JSON (a fresh copy: callers may not change the shared one). */
    public static ObjectNode document() {
        return DOCUMENT.deepCopy();
    }

    /** The PostgreSQL type names of the reference grouped by visual type. */
    public static Map<VisualType, List<String>> pgTypesByVisualType() {
        Map<VisualType, List<String>> out = new LinkedHashMap<>();
        for (VisualType t : VisualType.values()) {
            out.put(t, new ArrayList<>());
        }
        PgTypeMapping.KNOWN.forEach((pg, visual) -> out.get(visual).add(pg));
        out.get(VisualType.ARRAY).addAll(List.of("integer[]", "text[]", "_int4", "_text", "<any type>[]"));
        out.get(VisualType.ENUM).add("<user-defined enum type>");
        return out;
    }

    private static ObjectNode build() {
        ObjectNode doc = Json.object();
        ObjectNode pgTypes = doc.putObject("pg_types");
        pgTypesByVisualType().forEach((visual, names) -> {
            for (String name : names) {
                pgTypes.put(name, visual.wireName());
            }
        });
        doc.put("unknown_pg_type", "string (with a warning)");
        ObjectNode visualTypes = doc.putObject("visual_types");
        for (VisualType t : VisualType.values()) {
            ObjectNode v = visualTypes.putObject(t.wireName());
            ArrayNode formats = v.putArray("formats");
            t.formats().forEach(formats::add);
            if (t.defaultFormat() != null) {
                v.put("default_format", t.defaultFormat());
            }
            v.put("format_required", t.requiresFormat());
            ArrayNode ops = v.putArray("operators");
            t.operators().forEach(op -> ops.add(op.wireName()));
        }
        ObjectNode operators = doc.putObject("operators");
        for (FilterOperator op : FilterOperator.values()) {
            ObjectNode o = operators.putObject(op.wireName());
            o.put("meaning", op.description());
            o.put("value", switch (op.valueShape()) {
                case NONE -> "none";
                case SINGLE -> "one value";
                case PAIR -> "[low, high]";
                case LIST -> "non-empty array";
            });
        }
        ArrayNode rules = doc.putArray("rules");
        rules.add("every selected column has exactly one entry in visual_settings.columns, keyed by its alias or name");
        rules.add("ordering is all-or-nothing: if one visible column has an order, every visible column has a distinct one");
        rules.add("date and datetime columns carry a format");
        rules.add("filter and sort columns must be selected (hidden columns count)");
        rules.add("join types: INNER, LEFT, RIGHT, FULL; relationship_from names the base table or an earlier join's alias, relationship_to names the joined table");
        rules.add("names reaching SQL are plain identifiers: [A-Za-z_][A-Za-z0-9_]*, at most 63 characters");
        return doc;
    }
}
