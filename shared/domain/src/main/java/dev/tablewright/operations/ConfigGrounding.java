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

    /**
     * A column shown as a visual type its database type cannot be (a timestamp as a number): an error at its
     * setting. Any column may be shown as a string, and an enum as a string or an enum.
     */
    private static void checkVisualType(TableConfig config, SelectColumn c, dev.tablewright.schema.ColumnInfo info, ChangeLog log) {
        if (config.visualSettings() == null || config.visualSettings().columns() == null) {
            return;
        }
        dev.tablewright.config.ColumnSettings settings = config.visualSettings().columns().get(c.resultKey());
        if (settings == null || settings.type() == null) {
            return;
        }
        dev.tablewright.reference.VisualType declared = dev.tablewright.reference.VisualType.parse(settings.type()).orElse(null);
        dev.tablewright.reference.PgTypeMapping mapped = dev.tablewright.reference.PgTypeMapping.of(info.pgType(), info.userDefinedEnum());
        if (declared == null || mapped.warning() != null || declared == mapped.visualType()
                || declared == dev.tablewright.reference.VisualType.STRING
                || (declared == dev.tablewright.reference.VisualType.ENUM && mapped.visualType() == dev.tablewright.reference.VisualType.STRING)) {
            return;
        }
        log.error("visual_settings.columns." + c.resultKey() + ".type", "column '" + c.resultKey() + "' is "
                + info.pgType() + " in the database, shown as " + mapped.visualType().wireName() + " (or string); it cannot be shown as "
                + declared.wireName());
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
            table.flatMap(t -> grounding.column(t, c.name(), field, log)).ifPresent(info -> checkVisualType(config, c, info, log));
        }
        return log.problems.report();
    }
}
