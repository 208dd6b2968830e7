package dev.tablewright.grounding;

import dev.tablewright.schema.ClosestNames;
import dev.tablewright.schema.ColumnInfo;
import dev.tablewright.schema.SchemaCatalog;
import dev.tablewright.schema.TableInfo;
import dev.tablewright.validation.Identifiers;
import dev.tablewright.validation.ValidationCollector;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The one way a name is looked up in the live catalogue, for the grounder, the operations and schema search: a
 * schema, a table (schema first) or a column of a found table. A name that is not there is an error on the caller's
 * field naming the closest real ones. Lookups are cached for the life of the lookup (one operation, one config).
 */
public final class CatalogLookup {

    public static final String UNGROUNDED = "no schema catalogue: table and column names were not checked against the database";

    private final SchemaCatalog catalog;
    private final boolean reportOutages;
    private final Map<String, Optional<TableInfo>> tables = new HashMap<>();
    private List<String> schemas;

    private CatalogLookup(SchemaCatalog catalog, boolean reportOutages) {
        this.catalog = catalog;
        this.reportOutages = reportOutages;
    }

    /**
     * A lookup whose unreadable catalogue is an error on the field being checked ("could not check"), so the answer
     * stays a validation answer; a null catalogue checks nothing ({@link #noteIfUngrounded}).
     */
    public static CatalogLookup reportingOutages(SchemaCatalog catalog) {
        return new CatalogLookup(catalog, true);
    }

    /** A lookup whose unreadable catalogue throws {@code CatalogUnavailableException}: the caller answers "unavailable". */
    public static CatalogLookup failingOnOutage(SchemaCatalog catalog) {
        return new CatalogLookup(java.util.Objects.requireNonNull(catalog, "catalog"), false);
    }

    public boolean grounded() {
        return catalog != null;
    }

    /** Adds the "ungrounded" warning when there is no catalogue. */
    public void noteIfUngrounded(ValidationCollector out) {
        if (catalog == null) {
            out.warning("", UNGROUNDED);
        }
    }

    /** Whether the schema is visible; if not, an error at {@code field} naming the closest schemas. */
    public boolean schema(String schema, String field, ValidationCollector out) {
        List<String> visible = schemas();
        if (!visible.contains(schema)) {
            out.error(field, ClosestNames.missingSchema(schema, visible));
            return false;
        }
        return true;
    }

    /** {@link #table(String, String, String, String, ValidationCollector)} with one field for either problem. */
    public Optional<TableInfo> table(String schema, String table, String field, ValidationCollector out) {
        return table(schema, table, field, field, out);
    }

    /**
     * The table, or empty: when ungrounded (no error), or when it does not exist: an error at {@code schemaField}
     * naming the closest schemas when the schema is unknown, else at {@code tableField} naming the closest tables.
     */
    public Optional<TableInfo> table(String schema, String table, String schemaField, String tableField,
                                     ValidationCollector out) {
        if (catalog == null || schema == null || table == null) {
            return Optional.empty();
        }
        Optional<TableInfo> found;
        try {
            found = lookup(schema, table);
        } catch (RuntimeException e) {
            if (!reportOutages) {
                throw e;
            }
            out.error(tableField, "could not check " + Identifiers.quote(schema + "." + table)
                    + ": the schema catalogue is unavailable");
            return Optional.empty();
        }
        if (found.isEmpty() && schemaOrReport(schema, schemaField, out)) {
            String message;
            try {
                message = ClosestNames.missingTable(catalog, schema, table);
            } catch (RuntimeException e) {
                if (!reportOutages) {
                    throw e;
                }
                message = "table " + Identifiers.quote(schema + "." + table) + " does not exist.";
            }
            out.error(tableField, message);
        }
        return found;
    }

    /** The column of a found table, or empty after an error at {@code field} naming the closest real columns. */
    public Optional<ColumnInfo> column(TableInfo table, String column, String field, ValidationCollector out) {
        Optional<ColumnInfo> c = table.column(column);
        if (c.isEmpty()) {
            out.error(field, ClosestNames.missingColumn(table, column));
        }
        return c;
    }

    private boolean schemaOrReport(String schema, String field, ValidationCollector out) {
        try {
            return schema(schema, field, out);
        } catch (RuntimeException e) {
            if (!reportOutages) {
                throw e;
            }
            return true;
        }
    }

    /** The visible schemas, read once per lookup. */
    public List<String> schemas() {
        if (schemas == null) {
            List<String> read = catalog.schemas();
            schemas = read == null ? List.of() : read;
        }
        return schemas;
    }

    private Optional<TableInfo> lookup(String schema, String table) {
        return tables.computeIfAbsent(schema + "." + table, k -> {
            Optional<TableInfo> t = catalog.table(schema, table);
            return t == null ? Optional.empty() : t;
        });
    }
}
