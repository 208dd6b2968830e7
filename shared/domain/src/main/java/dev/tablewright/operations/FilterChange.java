package dev.tablewright.operations;

import dev.tablewright.grounding.CatalogLookup;
import dev.tablewright.config.SelectColumn;

import dev.tablewright.config.ForeignTable;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.config.ColumnSettings;
import dev.tablewright.config.Filter;
import dev.tablewright.config.TableConfig;
import dev.tablewright.json.Json;
import dev.tablewright.reference.FilterOperator;
import dev.tablewright.reference.VisualType;
import dev.tablewright.schema.SchemaCatalog;
import dev.tablewright.validation.Identifiers;
import dev.tablewright.validation.ConfigValidator;

import java.util.List;

/**
 * {@code apply_filter_change}: adds a filter (selecting its column as a hidden column first when it is not
 * selected, and checking the operator against the column's visual type), or removes filters. Removing a filter
 * leaves its column selected: hiding or removing a column is an explicit column change.
 */
public final class FilterChange {

    public enum Operation { ADD, REMOVE }

    private final SchemaCatalog catalog;

    public FilterChange() {
        this(null);
    }

    /** @param catalog the live schema to ground names in; null runs ungrounded (with a warning) */
    public FilterChange(SchemaCatalog catalog) {
        this.catalog = catalog;
    }

    public OperationResult add(TableConfig config, FilterSpec filter) {
        return apply(config, Operation.ADD, filter);
    }

    public OperationResult remove(TableConfig config, FilterSpec filter) {
        return apply(config, Operation.REMOVE, filter);
    }

    public OperationResult apply(TableConfig config, Operation operation, FilterSpec filter) {
        return Operations.addOrRemove(config, operation, "filter", filter, operation == Operation.ADD ? this::add : this::remove);
    }

    private void add(ConfigDraft d, FilterSpec f, ChangeLog log) {
        CatalogLookup grounding = CatalogLookup.reportingOutages(catalog);
        if (!Identifiers.check(log.problems, "filter.column", "filter column", f.column())) {
            return;
        }
        FilterOperator op = null;
        if (f.operator() == null || f.operator().isEmpty()) {
            log.error("filter.operator", "operator is missing; one of " + ConfigValidator.operatorNames(java.util.List.of(FilterOperator.values())));
        } else {
            op = FilterOperator.parse(f.operator()).orElse(null);
            if (op == null) {
                log.error("filter.operator", "operator " + Identifiers.quote(f.operator()) + " is not a filter operator; one of "
                        + ConfigValidator.operatorNames(java.util.List.of(FilterOperator.values())));
            }
        }
        if (op == null) {
            return;
        }
        String key = f.column();
        String source = f.sourceTable() == null || f.sourceTable().isBlank() ? null : f.sourceTable();
        if (source != null && !source.equals(d.baseTable())) {
            // a joined table's column: its own result key, never the base table's column of the same name
            key = joinedColumnKey(d, f, source, log, grounding);
            if (key == null) {
                return;
            }
        } else if (!d.isSelected(key)) {
            grounding.noteIfUngrounded(log.problems);
            ColumnSpec hidden = new ColumnSpec(f.column(), f.sourceTable(), null, f.pgType(), null, true, null, null);
            key = new ColumnSelection(d, log, grounding).selectHidden(hidden, "filter.column");
            if (key == null) {
                return;
            }
        }
        ColumnSettings cs = d.settingsOf(key);
        VisualType type = cs == null || cs.type() == null ? VisualType.STRING : VisualType.parse(cs.type()).orElse(null);
        if (type != null && !type.allows(op)) {
            log.error("filter.operator", "operator '" + op.wireName() + "' is not valid for " + type.wireName() + " column "
                    + Identifiers.quote(key) + "; valid: " + ConfigValidator.operatorNames(type.operators()));
            return;
        }
        Filter filter = new Filter(key, op.wireName(), value(op, f.value()), f.label(), null);
        if (!enumValuesAreLabels(d, key, filter.value(), log)) {
            return;
        }
        Filter existing = d.filter(key, op.wireName());
        if (existing != null) {
            d.putFilter(new Filter(key, op.wireName(), filter.value(), f.label() != null ? f.label() : existing.label(), existing.extra()));
            log.applied("filter " + key + " " + op.wireName() + " replaced" + describeValue(filter));
            return;
        }
        d.putFilter(filter);
        log.applied("filter " + key + " " + op.wireName() + describeValue(filter) + " added");
    }

    /**
     * For a column of a PostgreSQL enum: every value must be one of its labels (PostgreSQL would refuse the query at
     * preview otherwise); an error names the labels and the closest one. True when there is nothing to object to.
     */
    private boolean enumValuesAreLabels(ConfigDraft d, String key, JsonNode value, ChangeLog log) {
        if (catalog == null || value == null) {
            return true;
        }
        java.util.List<String> labels = enumLabels(d, key);
        if (labels.isEmpty()) {
            return true;
        }
        java.util.List<JsonNode> values = new java.util.ArrayList<>();
        if (value.isArray()) {
            value.forEach(values::add);
        } else {
            values.add(value);
        }
        for (JsonNode v : values) {
            String text = v.isTextual() ? v.textValue() : v.toString();
            if (!labels.contains(text)) {
                java.util.List<String> close = dev.tablewright.schema.ClosestNames.closest(text, labels, 1);
                String shown = text.length() > 60 ? text.substring(0, 60) + "…" : text;
                log.error("filter.value", "'" + shown + "' is not a value of " + key + "; one of " + String.join(", ", labels)
                        + (close.isEmpty() ? "" : ". Did you mean " + close.getFirst() + "?"));
                return false;
            }
        }
        return true;
    }

    /** The labels of the enum behind a selected column (base table or a join's), or empty. */
    private java.util.List<String> enumLabels(ConfigDraft d, String key) {
        try {
            for (SelectColumn c : d.columns()) {
                if (c == null || !key.equals(c.resultKey())) {
                    continue;
                }
                String schema = d.baseSchema();
                String table = d.baseTable();
                if (c.table() != null) {
                    ForeignTable join = d.join(c.table());
                    if (join == null) {
                        return java.util.List.of();
                    }
                    schema = join.schema();
                    table = join.table();
                }
                return catalog.table(schema, table).flatMap(t -> t.columns().stream().filter(ci -> ci.name().equals(c.name())).findFirst())
                        .map(dev.tablewright.schema.ColumnInfo::enumLabels).orElse(java.util.List.of());
            }
        } catch (RuntimeException e) {
            // the catalogue is unavailable: PostgreSQL checks the value at preview
        }
        return java.util.List.of();
    }

    /** The result key of {@code f.column()} from the join {@code source} (selected as hidden when it is not yet), or null. */
    private static String joinedColumnKey(ConfigDraft d, FilterSpec f, String source, ChangeLog log, CatalogLookup grounding) {
        ForeignTable join = d.join(source);
        java.util.List<ForeignTable> joins = join != null ? java.util.List.of(join) : d.joinsOfTable(source, null);
        if (joins.isEmpty()) {
            log.error("filter.source_table", "no join " + Identifiers.quote(source) + " in this config"
                    + (d.joinReferences().isEmpty() ? ": add the join first (apply_join_change)" : "; joins: " + d.joinReferences()));
            return null;
        }
        if (joins.size() > 1) {
            log.error("filter.source_table", "table " + Identifiers.quote(source) + " is joined more than once; name the join's alias: "
                    + joins.stream().map(ForeignTable::reference).toList());
            return null;
        }
        String reference = joins.getFirst().reference();
        for (SelectColumn c : d.columns()) {
            if (c != null && f.column().equals(c.name()) && reference.equals(c.table())) {
                return c.resultKey();
            }
        }
        grounding.noteIfUngrounded(log.problems);
        ColumnSpec hidden = new ColumnSpec(f.column(), reference, null, f.pgType(), null, true, null, null);
        return new ColumnSelection(d, log, grounding).selectHidden(hidden, "filter.column");
    }

    /** The value as given; a list sent as JSON text ("[1, 2]") for between/in/not_in is read as the list. */
    private static JsonNode value(FilterOperator op, JsonNode value) {
        if (value == null || value.isNull()) {
            return null;
        }
        boolean wantsList = op.valueShape() == FilterOperator.ValueShape.PAIR || op.valueShape() == FilterOperator.ValueShape.LIST;
        if (wantsList && value.isTextual() && value.textValue().trim().startsWith("[") && value.textValue().length() <= 100_000) {
            try {
                JsonNode parsed = Json.parse(value.textValue());
                if (parsed.isArray()) {
                    return parsed;
                }
            } catch (Exception e) {
                // not JSON: left as text, ConfigValidator reports the shape
            }
        }
        return value;
    }

    private static String describeValue(Filter f) {
        if (f.value() == null) {
            return "";
        }
        String v = f.value().isTextual() ? f.value().textValue() : f.value().toString();
        return " " + (v.length() > 60 ? v.substring(0, 60) + "…" : v);
    }

    private void remove(ConfigDraft d, FilterSpec f, ChangeLog log) {
        if (!Identifiers.check(log.problems, "filter.column", "filter column", f.column())) {
            return;
        }
        FilterOperator op = null;
        if (f.operator() != null && !f.operator().isEmpty()) {
            op = FilterOperator.parse(f.operator()).orElse(null);
            if (op == null) {
                log.error("filter.operator", "operator " + Identifiers.quote(f.operator()) + " is not a filter operator");
                return;
            }
        }
        FilterOperator only = op;
        List<Filter> removed = d.removeFilters(existing -> f.column().equals(existing.column())
                && (only == null || only == FilterOperator.parse(existing.operator()).orElse(null)));
        removed.forEach(existing -> log.applied("filter " + existing.column() + " " + existing.operator() + " removed"));
        if (removed.isEmpty()) {
            log.error("filter.column", "there is no filter on " + Identifiers.quote(f.column())
                    + (op == null ? "" : " with operator '" + op.wireName() + "'") + " to remove");
        }
    }
}
