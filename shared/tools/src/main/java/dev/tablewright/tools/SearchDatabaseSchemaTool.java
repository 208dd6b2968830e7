package dev.tablewright.tools;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.catalogue.DatabaseToolDefinitions;
import dev.tablewright.failure.ErrorCode;
import dev.tablewright.grounding.CatalogLookup;
import dev.tablewright.json.Json;
import dev.tablewright.schema.ColumnInfo;
import dev.tablewright.schema.ForeignKey;
import dev.tablewright.schema.SchemaCatalog;
import dev.tablewright.schema.TableInfo;
import dev.tablewright.sql.Database;
import dev.tablewright.sql.Databases;
import dev.tablewright.toolcontract.ToolInvocation;
import dev.tablewright.toolcontract.ToolOutcome;
import dev.tablewright.validation.ValidationCollector;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code search_database_schema}: the live schema, a page at a time, small enough for a model's context. Without
 * arguments it lists the visible schemas and their tables; {@code schema} and {@code name} narrow it (a name matches
 * tables and columns, case-insensitively); {@code table} (with {@code schema}) describes one table fully. Columns
 * come on request ({@code include_columns}) or for a single table; relationships always, in both directions.
 */
public final class SearchDatabaseSchemaTool extends LiveDatabaseTool {

    public static final int DEFAULT_PAGE_SIZE = 20;
    public static final int MAX_PAGE_SIZE = 50;
    /** With columns a table costs ~1-2 KB of context: pages are smaller. */
    public static final int MAX_PAGE_SIZE_WITH_COLUMNS = 10;
    private static final int MAX_QUERY_CHARS = 100;

    public SearchDatabaseSchemaTool(Databases databases) {
        super(DatabaseToolDefinitions.SEARCH_DATABASE_SCHEMA, databases);
    }

    @Override
    protected ToolOutcome answer(Database database, ToolInvocation invocation) {
        JsonNode args = arguments(invocation);
        String schema = text(args, "schema");
        String table = text(args, "table");
        String name = text(args, "name");
        for (String[] a : new String[][]{{"schema", schema}, {"table", table}, {"name", name}}) {
            if (a[1] != null && a[1].length() > MAX_QUERY_CHARS) {
                return ToolOutcome.error(ErrorCode.INVALID_ARGUMENTS, a[0] + " is longer than " + MAX_QUERY_CHARS + " characters");
            }
        }
        if (table != null && schema == null) {
            return ToolOutcome.error(ErrorCode.INVALID_ARGUMENTS, "table needs schema too");
        }
        int page = Math.max(1, args.path("page").asInt(1));
        boolean columns = args.path("include_columns").asBoolean(false) || table != null;
        int pageSize = Math.max(1, Math.min(columns ? MAX_PAGE_SIZE_WITH_COLUMNS : MAX_PAGE_SIZE,
                args.path("page_size").asInt(columns ? MAX_PAGE_SIZE_WITH_COLUMNS : DEFAULT_PAGE_SIZE)));

        SchemaCatalog catalog = database.catalog();
        CatalogLookup lookup = CatalogLookup.failingOnOutage(catalog);
        ValidationCollector missing = new ValidationCollector();
        if (schema != null && (table == null ? !lookup.schema(schema, "schema", missing)
                : lookup.table(schema, table, "schema", "table", missing).isEmpty())) {
            return ToolOutcome.error(ErrorCode.NOT_FOUND, missing.report().errors().get(0).message());
        }
        List<String> schemas = lookup.schemas();
        ObjectNode out = Json.object();
        out.put("database", database.name());
        List<TableInfo> matches = new ArrayList<>();
        List<String> searched = schema == null ? schemas : List.of(schema);
        String fragment = name == null ? null : name.toLowerCase(Locale.ROOT);
        for (String s : searched) {
            for (TableInfo t : catalog.tables(s)) {
                if (table != null && !t.name().equals(table)) {
                    continue;
                }
                if (fragment == null || t.name().toLowerCase(Locale.ROOT).contains(fragment)
                        || t.columns().stream().anyMatch(c -> c.name().toLowerCase(Locale.ROOT).contains(fragment))) {
                    matches.add(t);
                }
            }
        }
        out.set("schemas", Json.tree(schemas));
        int from = Math.min(matches.size(), (page - 1) * pageSize);
        int to = Math.min(matches.size(), from + pageSize);
        ArrayNode tables = out.putArray("tables");
        for (TableInfo t : matches.subList(from, to)) {
            tables.add(describe(t, columns, fragment));
        }
        out.put("page", page);
        out.put("pageSize", pageSize);
        out.put("total", matches.size());
        out.put("hasMore", to < matches.size());
        if (!columns && !matches.isEmpty()) {
            out.put("hint", "columns are left out; ask with include_columns=true or describe one table (schema + table)");
        }
        return ToolOutcome.ok(out);
    }

    private static ObjectNode describe(TableInfo t, boolean withColumns, String fragment) {
        ObjectNode o = Json.object();
        o.put("schema", t.schema());
        o.put("name", t.name());
        if (!"table".equals(t.kind())) {
            o.put("kind", t.kind());
        }
        List<String> pk = t.columns().stream().filter(ColumnInfo::primaryKey).map(ColumnInfo::name).toList();
        if (!pk.isEmpty()) {
            o.set("primaryKey", Json.tree(pk));
        }
        if (withColumns) {
            ArrayNode cols = o.putArray("columns");
            for (ColumnInfo c : t.columns()) {
                ObjectNode col = cols.addObject();
                col.put("name", c.name());
                col.put("type", c.pgType());
                if (c.nullable()) {
                    col.put("nullable", true);
                }
                if (c.primaryKey()) {
                    col.put("primaryKey", true);
                }
                if (c.defaultValue() != null) {
                    col.put("default", c.defaultValue());
                }
                if (c.userDefinedEnum()) {
                    col.put("enum", true);
                }
            }
        } else {
            o.put("columnCount", t.columns().size());
            if (fragment != null) {
                List<String> hits = t.columns().stream().map(ColumnInfo::name)
                        .filter(n -> n.toLowerCase(Locale.ROOT).contains(fragment)).toList();
                if (!hits.isEmpty()) {
                    o.set("matchingColumns", Json.tree(hits));
                }
            }
        }
        ArrayNode references = Json.MAPPER.createArrayNode();
        for (ForeignKey fk : t.outgoing()) {
            references.add(columns(fk.fromColumns()) + " -> " + fk.toSchema() + "." + fk.toTable() + columns(fk.toColumns()));
        }
        ArrayNode referencedBy = Json.MAPPER.createArrayNode();
        for (ForeignKey fk : t.incoming()) {
            referencedBy.add(fk.fromSchema() + "." + fk.fromTable() + columns(fk.fromColumns()) + " -> " + columns(fk.toColumns()));
        }
        if (!references.isEmpty()) {
            o.set("references", references);
        }
        if (!referencedBy.isEmpty()) {
            o.set("referencedBy", referencedBy);
        }
        return o;
    }

    private static String columns(List<String> names) {
        return "(" + String.join(", ", names) + ")";
    }

    private static String text(JsonNode args, String field) {
        JsonNode v = args.get(field);
        return v == null || !v.isTextual() || v.textValue().isBlank() ? null : v.textValue().trim();
    }
}
