package dev.tablewright.catalogue;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.config.JoinType;
import dev.tablewright.json.Json;
import dev.tablewright.reference.FilterOperator;

/** The JSON Schemas of the operation tools' arguments (their readers are the tools': {@code ArgumentReaders}). */
final class ArgumentSchemas {

    private static final int MAX_COLUMNS = OperationToolDefinitions.MAX_COLUMNS;

    private ArgumentSchemas() {
    }

    // ---------------------------------------------------------------- the tools' arguments

    static ObjectNode columnChange() {
        ObjectNode s = change("columns", "add, remove, or update (header, format, hidden, pg_type of selected columns)",
                "add", "remove", "update");
        ObjectNode cols = props(s).putObject("columns");
        cols.put("type", "array").put("minItems", 1).put("maxItems", MAX_COLUMNS)
                .put("description", "The columns to add, remove or update.");
        cols.set("items", column());
        return s;
    }

    static ObjectNode filterChange() {
        ObjectNode s = change("filter", "add or remove", "add", "remove");
        props(s).set("filter", filter());
        return s;
    }

    static ObjectNode joinChange() {
        ObjectNode s = change("join", "add or remove", "add", "remove");
        props(s).set("join", join());
        return s;
    }

    static ObjectNode sortChange() {
        ObjectNode s = change("sort", "add, remove or set", "add", "remove", "set");
        ObjectNode sort = props(s).putObject("sort");
        sort.put("type", "array").put("description", "Sort entries, first = primary sort.");
        sort.set("items", sortEntry());
        return s;
    }

    /** An operation tool's arguments: the config, the operation, and {@code target} (which the caller describes). */
    private static ObjectNode change(String target, String operationDescription, String... operations) {
        ObjectNode s = object("config", "operation", target);
        ObjectNode p = props(s);
        config(p);
        operation(p, operationDescription, operations);
        return s;
    }

    static ObjectNode validation() {
        ObjectNode s = object("config");
        config(props(s));
        return s;
    }

    static ObjectNode reference() {
        ObjectNode s = object();
        ObjectNode p = props(s);
        ObjectNode types = p.putObject("pg_types");
        types.put("type", "array").put("description", "Optional PostgreSQL types to map, e.g. [\"numeric(10,2)\", \"_int4\"].");
        types.putObject("items").put("type", "string");
        return s;
    }

    // ---------------------------------------------------------------- parts

    static ObjectNode object(String... required) {
        ObjectNode s = Json.object().put("type", "object");
        s.putObject("properties");
        ArrayNode r = s.putArray("required");
        for (String name : required) {
            r.add(name);
        }
        return s;
    }

    static ObjectNode props(ObjectNode schema) {
        return (ObjectNode) schema.get("properties");
    }

    static ObjectNode text(ObjectNode props, String name, String description) {
        return props.putObject(name).put("type", "string").put("description", description);
    }

    static void config(ObjectNode props) {
        ObjectNode c = props.putObject("config");
        c.putArray("type").add("object").add("string");
        c.put("description", "The current table config in the Config wire format v1 (from get_table_config or the "
                + "previous operation's result), as an object or as JSON text.");
    }

    static void operation(ObjectNode props, String description, String... values) {
        ObjectNode o = text(props, "operation", description);
        ArrayNode e = o.putArray("enum");
        for (String v : values) {
            e.add(v);
        }
    }

    static ObjectNode column() {
        ObjectNode c = object("name");
        ObjectNode p = props(c);
        text(p, "name", "Column name in the database (for remove: its name or its result alias).");
        text(p, "source_table", "Where the column comes from: the base table (default), a join's alias, or a joined table's name when it is joined once.");
        text(p, "source_schema", "Schema of source_table, when it is ambiguous.");
        text(p, "pg_type", "PostgreSQL type, e.g. 'timestamp without time zone'; taken from the database when omitted.");
        text(p, "alias", "Result key when not the column name (a plain identifier; display text becomes the header).");
        p.putObject("hidden").put("type", "boolean").put("description", "Select the column without showing it (default false).");
        text(p, "header", "Column header shown to the user (default: derived from the name).");
        text(p, "format", "Display format; dates and times get a default (see discover_table_reference).");
        return c;
    }

    static ObjectNode filter() {
        ObjectNode f = object("column");
        ObjectNode p = props(f);
        text(p, "column", "Result key of the column to filter on; a column that is not selected is added as a hidden column.");
        ObjectNode op = text(p, "operator", "Filter operator; must suit the column's visual type (discover_table_reference lists them). Optional for remove.");
        ArrayNode ops = op.putArray("enum");
        for (FilterOperator o : FilterOperator.values()) {
            ops.add(o.wireName());
        }
        p.putObject("value").put("description", "The value: one value; [low, high] for between; an array for in/not_in; none for is_null/is_not_null.");
        text(p, "label", "Label shown to the user for this filter.");
        text(p, "source_table", "When the column must be added: the join alias it comes from (default: the base table).");
        text(p, "pg_type", "When the column must be added: its PostgreSQL type (taken from the database when omitted).");
        return f;
    }

    static ObjectNode join() {
        ObjectNode j = object("table");
        ObjectNode p = props(j);
        text(p, "table", "Table to join (for remove: the join's alias, or its table when it is joined once).");
        text(p, "schema", "Schema of the table (default: the base table's schema).");
        text(p, "alias", "Alias for this join; derived when omitted: users_created_by from orders.created_by, customers from orders.customer_id, else users_2.");
        ObjectNode jt = text(p, "join_type", "INNER, LEFT (default), RIGHT or FULL.");
        ArrayNode types = jt.putArray("enum");
        for (JoinType t : JoinType.values()) {
            types.add(t.name());
        }
        text(p, "relationship_from", "<base table or joined alias>.<column>, e.g. orders.created_by; inferred from a foreign key when omitted with relationship_to.");
        text(p, "relationship_to", "<table>.<column> of the joined table, e.g. users.id.");
        ObjectNode cols = p.putObject("columns_to_add");
        cols.put("type", "array").put("description", "Columns of the joined table to select: names, or column objects.");
        ObjectNode items = cols.putObject("items");
        ArrayNode anyOf = items.putArray("anyOf");
        anyOf.addObject().put("type", "string");
        anyOf.add(column());
        return j;
    }

    static ObjectNode sortEntry() {
        ObjectNode s = object("column");
        ObjectNode p = props(s);
        text(p, "column", "Result key of the column to sort by; a column that is not selected is added as a hidden column.");
        ObjectNode d = text(p, "direction", "asc (default) or desc.");
        d.putArray("enum").add("asc").add("desc");
        text(p, "source_table", "When the column must be added: the join alias it comes from (default: the base table).");
        return s;
    }
}
