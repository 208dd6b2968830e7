package dev.tablewright.operations;

import dev.tablewright.config.DataSource;
import dev.tablewright.config.ForeignTable;
import dev.tablewright.config.RelationshipEnd;
import dev.tablewright.config.SelectColumn;
import dev.tablewright.config.TableConfig;
import dev.tablewright.schema.SchemaCatalog;
import dev.tablewright.schema.TableInfo;
import dev.tablewright.validation.ValidationReport;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Checks every table, column and relationship of a whole config against the live catalogue (for
 * {@code validate_table_config} and previews): unknown names are errors naming the closest real ones. Run it on a
 * config that passed {@code ValidateConfig} (names are then plain identifiers and the joins consistent).
 */
public final class ConfigGrounding {

    private ConfigGrounding() {
    }

    /** Errors for names the database does not have; a warning when there is no catalogue to check against. */
    public static ValidationReport check(TableConfig config, SchemaCatalog catalog) {
        ChangeLog log = new ChangeLog();
        SchemaGrounding grounding = new SchemaGrounding(catalog);
        if (!grounding.grounded()) {
            grounding.noteIfUngrounded(log);
            return log.problems.report();
        }
        DataSource ds = config.dataSource().get(0);
        String p = "data_source[0]";
        Optional<TableInfo> base = grounding.table(ds.schema(), ds.source(), p + ".source", log);
        if (base.isEmpty()) {
            return log.problems.report();
        }
        Map<String, Optional<TableInfo>> byRef = new HashMap<>();
        List<ForeignTable> joins = ds.select() == null || ds.select().foreignTables() == null ? List.of() : ds.select().foreignTables();
        for (int i = 0; i < joins.size(); i++) {
            ForeignTable ft = joins.get(i);
            String jp = p + ".select.foreign_tables[" + i + "]";
            Optional<TableInfo> target = grounding.table(ft.schema(), ft.table(), jp + ".table", log);
            RelationshipEnd from = RelationshipEnd.parse(ft.relationshipFrom()).orElse(null);
            RelationshipEnd to = RelationshipEnd.parse(ft.relationshipTo()).orElse(null);
            if (from != null) {
                Optional<TableInfo> fromTable = from.table().equals(ds.source()) && !byRef.containsKey(from.table())
                        ? base : byRef.getOrDefault(from.table(), Optional.empty());
                fromTable.ifPresent(t -> grounding.column(t, from.column(), jp + ".relationship_from", log));
            }
            if (to != null && target.isPresent()) {
                grounding.column(target.get(), to.column(), jp + ".relationship_to", log);
            }
            byRef.put(ft.reference(), target);
        }
        List<SelectColumn> columns = ds.select() == null || ds.select().columns() == null ? List.of() : ds.select().columns();
        for (int i = 0; i < columns.size(); i++) {
            SelectColumn c = columns.get(i);
            Optional<TableInfo> table = c.table() == null ? base : byRef.getOrDefault(c.table(), Optional.empty());
            String field = p + ".select.columns[" + i + "].name";
            table.ifPresent(t -> grounding.column(t, c.name(), field, log));
        }
        return log.problems.report();
    }
}
