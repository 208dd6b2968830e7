package dev.tablewright.tools;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.catalogue.OperationToolDefinitions;
import dev.tablewright.operations.ColumnSpec;
import dev.tablewright.operations.FilterSpec;
import dev.tablewright.operations.JoinSpec;
import dev.tablewright.operations.SortSpec;
import dev.tablewright.toolcontract.ToolArguments;

import java.util.List;

/** The readers of the operation tools' arguments, matching their schemas (the catalogue's {@code ArgumentSchemas}). */
final class ArgumentReaders {

    static final int MAX_COLUMNS = OperationToolDefinitions.MAX_COLUMNS;

    private ArgumentReaders() {
    }

    static ColumnSpec readColumn(ToolArguments args, JsonNode item, String path) {
        if (item != null && item.isTextual()) {
            if (item.textValue().length() > ToolArguments.MAX_TEXT_CHARS) {
                args.errorAt(path, "column name is " + item.textValue().length() + " characters long; at most " + ToolArguments.MAX_TEXT_CHARS);
                return null;
            }
            return ColumnSpec.named(item.textValue());
        }
        ToolArguments c = args.element(item, path);
        if (c == null) {
            return null;
        }
        return new ColumnSpec(c.text("name", true), c.text("source_table", false), c.text("source_schema", false),
                c.text("pg_type", false, 200), c.text("alias", false), c.bool("hidden"), c.text("header", false),
                c.text("format", false, 200));
    }

    static List<ColumnSpec> readColumns(ToolArguments args, String field, boolean required) {
        return args.list(field, required, MAX_COLUMNS, (item, path) -> readColumn(args, item, path));
    }

    static FilterSpec readFilter(ToolArguments args) {
        var node = args.object("filter", true);
        if (node == null) {
            return null;
        }
        ToolArguments f = args.at(node, "filter");
        return new FilterSpec(f.text("column", true), f.text("operator", false, 100), f.raw("value"), f.text("label", false),
                f.text("source_table", false), f.text("pg_type", false, 200));
    }

    static JoinSpec readJoin(ToolArguments args) {
        var node = args.object("join", true);
        if (node == null) {
            return null;
        }
        ToolArguments j = args.at(node, "join");
        String table = j.text("table", false);
        String alias = j.text("alias", false);
        if (table == null && alias == null && !j.has("table")) {
            j.error("table", "table is missing");
        }
        List<ColumnSpec> cols = j.list("columns_to_add", false, MAX_COLUMNS, (item, path) -> readColumn(args, item, path));
        return new JoinSpec(table, j.text("schema", false), alias, j.text("join_type", false, 100),
                j.text("relationship_from", false, 300), j.text("relationship_to", false, 300), cols);
    }

    static List<SortSpec> readSort(ToolArguments args) {
        return args.list("sort", true, 100, (item, path) -> {
            ToolArguments s = args.element(item, path);
            if (s == null) {
                return null;
            }
            return new SortSpec(s.text("column", true), s.text("direction", false, 100), s.text("source_table", false));
        });
    }
}
