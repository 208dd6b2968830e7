package dev.tablewright.operations;

import dev.tablewright.schema.ClosestNames;
import dev.tablewright.schema.ColumnInfo;
import dev.tablewright.schema.SchemaCatalog;
import dev.tablewright.schema.TableInfo;
import dev.tablewright.validation.Identifiers;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Checks the names an operation introduces against the live catalogue (never invent a table, column or
 * relationship). Without a catalogue it checks nothing and the operation says so in one warning. Lookups are
 * cached for the length of one operation.
 */
final class SchemaGrounding {

    static final String UNGROUNDED = "no schema catalogue: table and column names were not checked against the database";

    private final SchemaCatalog catalog;
    private final Map<String, Optional<TableInfo>> tables = new HashMap<>();

    SchemaGrounding(SchemaCatalog catalog) {
        this.catalog = catalog;
    }

    boolean grounded() {
        return catalog != null;
    }

    /** Adds the "ungrounded" warning once per operation when there is no catalogue. */
    void noteIfUngrounded(ChangeLog log) {
        if (catalog == null) {
            log.warning("", UNGROUNDED);
        }
    }

    /**
     * The table, or empty: when ungrounded (no error), or when it does not exist (error at {@code field} naming
     * the closest real tables, or schemas when the schema itself is unknown).
     */
    Optional<TableInfo> table(String schema, String table, String field, ChangeLog log) {
        if (catalog == null || schema == null || table == null) {
            return Optional.empty();
        }
        Optional<TableInfo> found;
        try {
            found = lookup(schema, table);
        } catch (RuntimeException e) {
            log.error(field, "could not check " + Identifiers.quote(schema + "." + table) + ": the schema catalogue is unavailable");
            return Optional.empty();
        }
        if (found.isEmpty()) {
            List<String> schemas = safe(catalog::schemas);
            if (!schemas.contains(schema)) {
                log.error(field, ClosestNames.missingSchema(schema, schemas));
            } else {
                String message;
                try {
                    message = ClosestNames.missingTable(catalog, schema, table);
                } catch (RuntimeException e) {
                    message = "table " + Identifiers.quote(schema + "." + table) + " does not exist.";
                }
                log.error(field, message);
            }
        }
        return found;
    }

    /** The column of a known table, or empty after an error at {@code field} naming the closest real columns. */
    Optional<ColumnInfo> column(TableInfo table, String column, String field, ChangeLog log) {
        Optional<ColumnInfo> c = table.column(column);
        if (c.isEmpty()) {
            log.error(field, ClosestNames.missingColumn(table, column));
        }
        return c;
    }

    Optional<TableInfo> lookup(String schema, String table) {
        String key = schema + "." + table;
        Optional<TableInfo> cached = tables.get(key);
        if (cached == null) {
            cached = catalog.table(schema, table);
            tables.put(key, cached == null ? Optional.empty() : cached);
        }
        return tables.get(key);
    }

    private static <T> List<T> safe(java.util.function.Supplier<List<T>> read) {
        try {
            List<T> list = read.get();
            return list == null ? List.of() : list;
        } catch (RuntimeException e) {
            return List.of();
        }
    }
}
