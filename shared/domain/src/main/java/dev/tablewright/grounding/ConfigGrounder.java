package dev.tablewright.grounding;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.config.ColumnSettings;
import dev.tablewright.config.DataSource;
import dev.tablewright.config.Filter;
import dev.tablewright.config.ForeignTable;
import dev.tablewright.config.JoinType;
import dev.tablewright.config.RelationshipEnd;
import dev.tablewright.config.SelectColumn;
import dev.tablewright.config.Sort;
import dev.tablewright.config.SortDirection;
import dev.tablewright.config.TableConfig;
import dev.tablewright.reference.FilterOperator;
import dev.tablewright.reference.PgTypeMapping;
import dev.tablewright.reference.VisualType;
import dev.tablewright.schema.ColumnInfo;
import dev.tablewright.schema.SchemaCatalog;
import dev.tablewright.schema.TableInfo;
import dev.tablewright.validation.ConfigValidator;
import dev.tablewright.validation.ValidationCollector;
import dev.tablewright.validation.ValidationError;
import dev.tablewright.validation.ValidationReport;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Grounds a config in the live catalogue, the one walk from a config to the database's names: every schema, table,
 * column and relationship is looked up ({@link CatalogLookup}), an unknown name is an error on its field naming the
 * closest real ones, and a column's visual type must be one its database type can be shown as. A join follows a real
 * foreign key (in either direction; a key over several columns is followed whole).
 *
 * <p>It works on a config whose structure {@link ConfigValidator} accepted, so nothing here checks join types, sort
 * directions, operators or filter values again: a structurally invalid config is answered with ConfigValidator's errors.
 *
 * <p>Two uses, one walk: {@link #ground} for the SQL compiler (the result is a {@link GroundedConfig}, or errors; a
 * join with no foreign key is an error) and {@link #check} for validation ({@code validate_table_config}, the config
 * API: errors and warnings only; a join with no foreign key is a warning, because the operations allow it). Either way
 * an unreadable catalogue throws {@code CatalogUnavailableException}: the answer is "unavailable, retry", never a
 * config wrongly called invalid.
 */
public final class ConfigGrounder {

    /** The grounded config, or the errors (fields point into the config) that prevented it; warnings either way. */
    public record Grounding(GroundedConfig config, List<ValidationError> errors, List<ValidationError> warnings) {
        public Grounding {
            errors = List.copyOf(errors);
            warnings = List.copyOf(warnings);
        }
    }

    private static final String P = "data_source[0]";

    private final boolean forQuery;
    private final CatalogLookup lookup;
    private final ValidationCollector out = new ValidationCollector();
    /** Reference (alias, or table name without one) → grounded source, base table first. */
    private final Map<String, GroundedConfig.Source> sources = new LinkedHashMap<>();
    private final List<GroundedConfig.Join> joins = new ArrayList<>();
    private final List<ResultColumn> columns = new ArrayList<>();
    private final Map<String, ResultColumn> byKey = new LinkedHashMap<>();

    private ConfigGrounder(boolean forQuery, SchemaCatalog catalog) {
        this.forQuery = forQuery;
        this.lookup = CatalogLookup.failingOnOutage(catalog);
    }

    /** For the SQL compiler: the grounded config, or why there is none. */
    public static Grounding ground(TableConfig config, SchemaCatalog catalog) {
        ValidationReport structure = ConfigValidator.validate(config);
        if (!structure.valid()) {
            return new Grounding(null, structure.errors(), List.of());
        }
        ConfigGrounder grounder = new ConfigGrounder(true, catalog);
        GroundedConfig grounded = grounder.run(config);
        ValidationReport report = grounder.out.report();
        return new Grounding(report.valid() ? grounded : null, report.errors(), report.warnings());
    }

    /**
     * For validation: the names the database does not have, as errors; a warning when there is no catalogue to check
     * against. Run it on a config that {@link ConfigValidator} accepted (it answers ConfigValidator's errors otherwise).
     */
    public static ValidationReport check(TableConfig config, SchemaCatalog catalog) {
        if (catalog == null) {
            return new ValidationReport(List.of(), List.of(new ValidationError("", CatalogLookup.UNGROUNDED)));
        }
        ValidationReport structure = ConfigValidator.validate(config);
        if (!structure.valid()) {
            return new ValidationReport(structure.errors(), List.of());
        }
        ConfigGrounder grounder = new ConfigGrounder(false, catalog);
        grounder.run(config);
        return grounder.out.report();
    }

    private GroundedConfig run(TableConfig config) {
        DataSource ds = config.dataSource().get(0);
        Optional<TableInfo> base = lookup.table(ds.schema(), ds.source(), P + ".schema", P + ".source", out);
        if (base.isEmpty()) {
            return null;
        }
        GroundedConfig.Source baseSource = new GroundedConfig.Source(ds.source(), base.get());
        sources.put(ds.source(), baseSource);
        List<ForeignTable> configJoins = ds.select() == null || ds.select().foreignTables() == null
                ? List.of() : ds.select().foreignTables();
        for (int i = 0; i < configJoins.size(); i++) {
            join(configJoins.get(i), P + ".select.foreign_tables[" + i + "]");
        }
        List<SelectColumn> selected = ds.select() == null || ds.select().columns() == null
                ? List.of() : ds.select().columns();
        if (selected.isEmpty() && forQuery) {
            out.error(P + ".select.columns", "select at least one column");
        }
        for (int i = 0; i < selected.size(); i++) {
            column(config, selected.get(i), P + ".select.columns[" + i + "]");
        }
        if (out.hasErrors()) {
            return null;
        }
        List<GroundedConfig.FilterOn> filters = new ArrayList<>();
        List<Filter> configFilters = ds.filters() == null ? List.of() : ds.filters();
        for (int i = 0; i < configFilters.size(); i++) {
            Filter f = configFilters.get(i);
            FilterOperator op = FilterOperator.parse(f.operator()).orElseThrow();
            filters.add(new GroundedConfig.FilterOn(P + ".filters[" + i + "]", byKey.get(f.column()), op,
                    values(f.value(), op.valueShape())));
        }
        List<GroundedConfig.SortOn> sorts = new ArrayList<>();
        List<Sort> configSorts = ds.sort() == null ? List.of() : ds.sort();
        for (int i = 0; i < configSorts.size(); i++) {
            Sort s = configSorts.get(i);
            sorts.add(new GroundedConfig.SortOn(P + ".sort[" + i + "]", byKey.get(s.column()),
                    SortDirection.parse(s.direction() == null ? "asc" : s.direction()).orElseThrow()));
        }
        return new GroundedConfig(baseSource, joins, columns, filters, sorts);
    }

    /**
     * A join's table is a source once found (so its columns are checked even when its relationship is wrong); the
     * join itself only once its relationship follows a foreign key. A join that starts from a source that could not
     * be grounded is skipped: its cause is already reported.
     */
    private void join(ForeignTable j, String p) {
        Optional<TableInfo> table = lookup.table(j.schema(), j.table(), p + ".schema", p + ".table", out);
        if (table.isEmpty()) {
            return;
        }
        GroundedConfig.Source joined = new GroundedConfig.Source(j.reference(), table.get());
        RelationshipEnd fromEnd = RelationshipEnd.parse(j.relationshipFrom()).orElseThrow();
        RelationshipEnd toEnd = RelationshipEnd.parse(j.relationshipTo()).orElseThrow();
        GroundedConfig.Source from = sources.get(fromEnd.table());
        sources.put(joined.alias(), joined);
        if (from == null) {
            return;
        }
        Optional<ColumnInfo> fromColumn = lookup.column(from.table(), fromEnd.column(), p + ".relationship_from", out);
        Optional<ColumnInfo> toColumn = lookup.column(joined.table(), toEnd.column(), p + ".relationship_to", out);
        if (fromColumn.isEmpty() || toColumn.isEmpty()) {
            return;
        }
        Optional<List<GroundedConfig.KeyPair>> pairs = ForeignKeys.pairs(from.table(), fromEnd.column(), joined.table(),
                toEnd.column());
        if (pairs.isEmpty()) {
            String why = ForeignKeys.noKeyBetween(from.table(), fromEnd.column(), joined.table(), toEnd.column());
            if (forQuery) {
                out.error(p + ".relationship_from", why);
            } else {
                out.warning(p + ".relationship_from", why + " A preview runs only joins that follow a foreign key.");
            }
            return;
        }
        if (pairs.get().size() > 1) {
            out.warning(p, "the foreign key has " + pairs.get().size() + " columns: the join uses all of them");
        }
        joins.add(new GroundedConfig.Join(JoinType.parse(j.joinType()).orElseThrow(), joined, from, pairs.get()));
    }

    private void column(TableConfig config, SelectColumn c, String p) {
        GroundedConfig.Source source = c.table() == null ? sources.values().iterator().next() : sources.get(c.table());
        if (source == null) {
            return;
        }
        lookup.column(source.table(), c.name(), p + ".name", out).ifPresent(info -> {
            visualType(config, c, info);
            ResultColumn rc = new ResultColumn(c.resultKey(), source.alias(), info);
            if (byKey.putIfAbsent(rc.key(), rc) == null) {
                columns.add(rc);
            }
        });
    }

    /**
     * A column shown as a visual type its database type cannot be (a timestamp as a number) is an error at its
     * setting. Any column may be shown as a string, and an enum as a string or an enum.
     */
    private void visualType(TableConfig config, SelectColumn c, ColumnInfo info) {
        if (config.visualSettings() == null || config.visualSettings().columns() == null) {
            return;
        }
        ColumnSettings settings = config.visualSettings().columns().get(c.resultKey());
        if (settings == null || settings.type() == null) {
            return;
        }
        VisualType declared = VisualType.parse(settings.type()).orElse(null);
        PgTypeMapping mapped = PgTypeMapping.of(info.pgType(), info.userDefinedEnum());
        if (declared == null || mapped.warning() != null || declared == mapped.visualType() || declared == VisualType.STRING
                || (declared == VisualType.ENUM && mapped.visualType() == VisualType.STRING)) {
            return;
        }
        out.error("visual_settings.columns." + c.resultKey() + ".type", "column '" + c.resultKey() + "' is "
                + info.pgType() + " in the database, shown as " + mapped.visualType().wireName() + " (or string); it cannot be shown as "
                + declared.wireName());
    }

    /** The filter's values as text (ConfigValidator has checked their shape against the operator). */
    private static List<String> values(JsonNode value, FilterOperator.ValueShape shape) {
        return switch (shape) {
            case NONE -> List.of();
            case SINGLE -> List.of(text(value));
            default -> {
                List<String> out = new ArrayList<>();
                value.forEach(v -> out.add(text(v)));
                yield out;
            }
        };
    }

    private static String text(JsonNode v) {
        if (v.isTextual()) {
            return v.textValue();
        }
        if (v.isIntegralNumber()) {
            return v.bigIntegerValue().toString();
        }
        if (v.isNumber()) {
            return v.decimalValue().toPlainString();
        }
        if (v.isBoolean()) {
            return Boolean.toString(v.booleanValue());
        }
        throw new IllegalStateException("a validated filter value is a string, number or boolean");
    }
}
