package dev.tablewright.validation;

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
import dev.tablewright.config.VisualSettings;
import dev.tablewright.reference.FilterOperator;
import dev.tablewright.reference.VisualType;

import java.math.BigDecimal;
import java.text.ParsePosition;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Every invariant of the Config wire format (docs/table-config.md), each failure an error at a JSON-pointer-like field
 * ({@code data_source[0].filters[0].operator}), warnings where the table still renders. Errors are collected, not
 * thrown, and the work is linear in the size of the config (hash lookups only), so hostile input stays cheap.
 *
 * <p>Conventions the SQL side relies on: exactly one data source; a column's {@code table} is absent for base-table
 * columns, else a join's reference (alias, or table name when the join has no alias); {@code relationship_from}
 * names the base table or an earlier join, {@code relationship_to} names the join itself; a sort without a
 * direction is ascending (a warning).
 */
public final class ConfigValidator {

    public static final int MAX_COLUMNS = 500;
    public static final int MAX_JOINS = 20;
    public static final int MAX_FILTERS = 100;
    public static final int MAX_SORTS = 20;
    public static final int MAX_LIST_VALUES = 1000;
    public static final int MAX_VALUE_CHARS = 1000;
    public static final int MAX_LABEL_CHARS = 200;
    public static final int MAX_FORMAT_CHARS = 64;
    public static final int MAX_NAME_CHARS = 200;
    public static final int MAX_DESCRIPTION_CHARS = 4000;
    public static final int MAX_PAGE_SIZE = 1000;

    private static final Pattern UUID_PATTERN = Pattern.compile("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");

    private final ValidationCollector out = new ValidationCollector();
    /** Join reference (alias or table) → index. */
    private final Map<String, Integer> joins = new LinkedHashMap<>();
    /** Result key → visual type (null when the type is unknown: no operator check then). */
    private final Map<String, VisualType> selected = new HashMap<>();
    /** Result keys of columns that already failed their own checks: no second error for their settings. */
    private final Set<String> brokenKeys = new HashSet<>();
    private String baseTable;

    private ConfigValidator() {
    }

    public static ValidationReport validate(TableConfig config) {
        ConfigValidator v = new ConfigValidator();
        if (config == null) {
            v.out.error("config", "config is missing");
        } else {
            v.run(config);
        }
        return v.out.report();
    }

    private void run(TableConfig c) {
        maxLength("id", "id", c.id(), MAX_NAME_CHARS);
        maxLength("name", "name", c.name(), MAX_NAME_CHARS);
        maxLength("description", "description", c.description(), MAX_DESCRIPTION_CHARS);
        List<DataSource> sources = c.dataSource();
        if (sources == null || sources.isEmpty() || sources.get(0) == null) {
            out.error("data_source", "a base table is required: data_source[0] with schema and source");
            return;
        }
        if (sources.size() > 1) {
            out.error("data_source[1]", "only one data source is supported; found " + sources.size());
        }
        DataSource ds = sources.get(0);
        String p = "data_source[0]";
        Identifiers.check(out, p + ".schema", "base table schema", ds.schema());
        if (Identifiers.check(out, p + ".source", "base table (source)", ds.source())) {
            baseTable = ds.source();
        }
        List<ForeignTable> foreign = ds.select() == null || ds.select().foreignTables() == null ? List.of() : ds.select().foreignTables();
        List<SelectColumn> columns = ds.select() == null || ds.select().columns() == null ? List.of() : ds.select().columns();
        validateJoins(p + ".select.foreign_tables", foreign);
        Map<String, ColumnSettings> settings = c.visualSettings() == null || c.visualSettings().columns() == null
                ? Map.of() : c.visualSettings().columns();
        validateColumns(p + ".select.columns", columns, settings);
        validateVisualSettings(c.visualSettings(), settings);
        validateFilters(p + ".filters", ds.filters() == null ? List.of() : ds.filters());
        validateSorts(p + ".sort", ds.sort() == null ? List.of() : ds.sort());
    }

    // ---------------------------------------------------------------- joins

    private void validateJoins(String path, List<ForeignTable> foreign) {
        if (foreign.size() > MAX_JOINS) {
            out.error(path, "too many joins: " + foreign.size() + " (at most " + MAX_JOINS + ")");
        }
        for (int i = 0; i < foreign.size(); i++) {
            ForeignTable ft = foreign.get(i);
            String p = path + "[" + i + "]";
            if (ft == null) {
                out.error(p, "join is empty");
                continue;
            }
            Identifiers.check(out, p + ".schema", "join schema", ft.schema());
            boolean tableOk = Identifiers.check(out, p + ".table", "joined table", ft.table());
            boolean aliasOk = true;
            if (ft.alias() == null || ft.alias().isEmpty()) {
                if (tableOk) {
                    out.warning(p + ".alias", "join has no alias: it is referred to by its table name " + Identifiers.quote(ft.table()));
                }
            } else {
                aliasOk = Identifiers.check(out, p + ".alias", "join alias", ft.alias());
            }
            String ref = ft.reference();
            if (tableOk && aliasOk) {
                Integer previous = joins.get(ref);
                if (previous != null) {
                    out.error(p + ".alias", "alias " + Identifiers.quote(ref) + " is already used by foreign_tables[" + previous
                            + "]; a table joined twice needs a distinct alias per join");
                } else if (ref.equals(baseTable)) {
                    out.error(p + ".alias", "alias " + Identifiers.quote(ref) + " is the base table's name; give this join another alias");
                }
            }
            if (ft.joinType() == null || ft.joinType().isEmpty()) {
                out.error(p + ".join_type", "join_type is missing; one of INNER, LEFT, RIGHT, FULL");
            } else if (JoinType.parse(ft.joinType()).isEmpty()) {
                out.error(p + ".join_type", "join_type " + Identifiers.quote(ft.joinType()) + " is not one of INNER, LEFT, RIGHT, FULL");
            }
            validateRelationshipFrom(p + ".relationship_from", ft.relationshipFrom());
            validateRelationshipTo(p + ".relationship_to", ft.relationshipTo(), ft);
            if (tableOk && aliasOk && !joins.containsKey(ref)) {
                joins.put(ref, i);
            }
        }
    }

    private RelationshipEnd relationshipEnd(String field, String text) {
        if (text == null || text.isEmpty()) {
            out.error(field, "relationship is missing; write <table-or-alias>.<column>");
            return null;
        }
        RelationshipEnd end = RelationshipEnd.parse(text).orElse(null);
        if (end == null) {
            out.error(field, "relationship " + Identifiers.quote(text) + " is not <table-or-alias>.<column>");
            return null;
        }
        boolean ok = (end.schema() == null || Identifiers.check(out, field, "relationship schema", end.schema()))
                && Identifiers.check(out, field, "relationship table", end.table())
                && Identifiers.check(out, field, "relationship column", end.column());
        return ok ? end : null;
    }

    private void validateRelationshipFrom(String field, String text) {
        RelationshipEnd end = relationshipEnd(field, text);
        if (end == null) {
            return;
        }
        if (!end.table().equals(baseTable) && !joins.containsKey(end.table())) {
            out.error(field, "relationship_from " + Identifiers.quote(text) + " must name the base table "
                    + Identifiers.quote(baseTable) + " or a join listed before this one" + knownJoins());
        }
    }

    private void validateRelationshipTo(String field, String text, ForeignTable ft) {
        RelationshipEnd end = relationshipEnd(field, text);
        if (end == null) {
            return;
        }
        if (!end.table().equals(ft.table()) && !end.table().equals(ft.alias())) {
            out.error(field, "relationship_to " + Identifiers.quote(text) + " must name the joined table "
                    + Identifiers.quote(ft.table()) + (ft.alias() == null ? "" : " or its alias " + Identifiers.quote(ft.alias())));
        }
    }

    private String knownJoins() {
        if (joins.isEmpty()) {
            return " (no earlier joins)";
        }
        StringBuilder s = new StringBuilder(" (earlier joins: ");
        int n = 0;
        for (String ref : joins.keySet()) {
            if (n++ == 10) {
                s.append(", …");
                break;
            }
            s.append(n > 1 ? ", " : "").append(ref);
        }
        return s.append(')').toString();
    }

    // ---------------------------------------------------------------- columns

    private void validateColumns(String path, List<SelectColumn> columns, Map<String, ColumnSettings> settings) {
        if (columns.size() > MAX_COLUMNS) {
            out.error(path, "too many columns: " + columns.size() + " (at most " + MAX_COLUMNS + ")");
        }
        if (columns.isEmpty()) {
            out.warning(path, "no columns are selected yet");
        }
        Map<String, Integer> keys = new HashMap<>();
        for (int i = 0; i < columns.size(); i++) {
            SelectColumn col = columns.get(i);
            String p = path + "[" + i + "]";
            if (col == null) {
                out.error(p, "column is empty");
                continue;
            }
            boolean ok = Identifiers.check(out, p + ".name", "column name", col.name());
            if (col.table() != null) {
                if (!Identifiers.check(out, p + ".table", "column table", col.table())) {
                    ok = false;
                } else if (col.table().equals(baseTable) && !joins.containsKey(col.table())) {
                    out.error(p + ".table", "table " + Identifiers.quote(col.table())
                            + " is the base table: leave table out for base-table columns");
                } else if (!joins.containsKey(col.table())) {
                    out.error(p + ".table", "table " + Identifiers.quote(col.table()) + " is not a joined alias" + knownJoinsPlain());
                }
            }
            if (col.alias() != null && !Identifiers.check(out, p + ".alias", "column alias", col.alias())) {
                ok = false;
            }
            if (!ok) {
                if (col.resultKey() != null) {
                    brokenKeys.add(col.resultKey());
                }
                continue;
            }
            String key = col.resultKey();
            Integer previous = keys.putIfAbsent(key, i);
            if (previous != null) {
                out.error(p, "result key " + Identifiers.quote(key) + " is already used by columns[" + previous
                        + "]; give one of them an alias");
                continue;
            }
            ColumnSettings cs = settings.get(key);
            if (cs == null) {
                out.error(p, "column " + Identifiers.quote(key) + " has no entry in visual_settings.columns; "
                        + "selected columns and visual settings must stay in sync");
                selected.put(key, VisualType.STRING);
            } else {
                selected.put(key, cs.type() == null ? VisualType.STRING : VisualType.parse(cs.type()).orElse(null));
            }
        }
    }

    private String knownJoinsPlain() {
        return joins.isEmpty() ? " (there are no joins)" : knownJoins().replace("earlier joins", "joins");
    }

    private void validateVisualSettings(VisualSettings vs, Map<String, ColumnSettings> settings) {
        if (vs != null && vs.pageSize() != null && (vs.pageSize() < 1 || vs.pageSize() > MAX_PAGE_SIZE)) {
            out.error("visual_settings.page_size", "page_size " + vs.pageSize() + " is out of range 1.." + MAX_PAGE_SIZE);
        }
        Map<Integer, String> orders = new HashMap<>();
        List<String> unordered = new ArrayList<>();
        boolean anyOrdered = false;
        for (Map.Entry<String, ColumnSettings> e : settings.entrySet()) {
            String key = e.getKey();
            ColumnSettings cs = e.getValue();
            String p = "visual_settings.columns" + Identifiers.pathKey(key);
            if (brokenKeys.contains(key)) {
                continue;
            }
            if (!selected.containsKey(key)) {
                out.error(p, "column " + Identifiers.quote(key) + " is in visual_settings.columns but not selected; "
                        + "remove the entry or select the column");
                continue;
            }
            if (cs == null) {
                continue;
            }
            maxLength(p + ".header", "header", cs.header(), MAX_LABEL_CHARS);
            VisualType type = null;
            if (cs.type() == null) {
                out.warning(p + ".type", "column " + Identifiers.quote(key) + " has no type: shown as string");
                type = VisualType.STRING;
            } else {
                type = VisualType.parse(cs.type()).orElse(null);
                if (type == null) {
                    out.error(p + ".type", "type " + Identifiers.quote(cs.type()) + " is not a visual type; one of " + VisualType.wireNames());
                }
            }
            if (cs.format() != null && cs.format().length() > MAX_FORMAT_CHARS) {
                out.error(p + ".format", "format is " + cs.format().length() + " characters long; at most " + MAX_FORMAT_CHARS);
            } else if (type != null) {
                if (type.requiresFormat() && (cs.format() == null || cs.format().isBlank())) {
                    out.error(p + ".format", type.wireName() + " column " + Identifiers.quote(key) + " needs a format, e.g. "
                            + Identifiers.quote(type.defaultFormat()));
                } else if (cs.format() != null && !type.formats().contains(cs.format())) {
                    out.warning(p + ".format", "format " + Identifiers.quote(cs.format()) + " is not one of the "
                            + type.wireName() + " formats " + type.formats() + "; it is used as a custom pattern");
                }
            }
            if (cs.order() != null && cs.order() < 0) {
                out.error(p + ".order", "order must be zero or positive, got " + cs.order());
            }
            if (cs.isHidden()) {
                continue;
            }
            if (cs.order() == null) {
                unordered.add(key);
            } else {
                anyOrdered = true;
                String other = orders.putIfAbsent(cs.order(), key);
                if (other != null) {
                    out.error(p + ".order", "order " + cs.order() + " is also used by " + Identifiers.quote(other)
                            + "; visible columns need distinct orders");
                }
            }
        }
        if (anyOrdered) {
            for (String key : unordered) {
                out.error("visual_settings.columns" + Identifiers.pathKey(key) + ".order", "visible column " + Identifiers.quote(key)
                        + " has no order while others do: ordering is all-or-nothing");
            }
        }
        boolean anyVisible = false;
        for (ColumnSettings cs : settings.values()) {
            if (cs != null && !cs.isHidden()) {
                anyVisible = true;
                break;
            }
        }
        if (!settings.isEmpty() && !anyVisible) {
            out.warning("visual_settings.columns", "every column is hidden: the table shows no columns");
        }
    }

    // ---------------------------------------------------------------- filters and sort

    private void validateFilters(String path, List<Filter> filters) {
        if (filters.size() > MAX_FILTERS) {
            out.error(path, "too many filters: " + filters.size() + " (at most " + MAX_FILTERS + ")");
        }
        for (int i = 0; i < filters.size(); i++) {
            Filter f = filters.get(i);
            String p = path + "[" + i + "]";
            if (f == null) {
                out.error(p, "filter is empty");
                continue;
            }
            maxLength(p + ".label", "label", f.label(), MAX_LABEL_CHARS);
            boolean known = selectedColumn(p + ".column", "filter", f.column());
            FilterOperator op = null;
            if (f.operator() == null || f.operator().isEmpty()) {
                out.error(p + ".operator", "operator is missing");
            } else {
                op = FilterOperator.parse(f.operator()).orElse(null);
                if (op == null) {
                    out.error(p + ".operator", "operator " + Identifiers.quote(f.operator()) + " is not a filter operator; one of "
                            + operatorNames(List.of(FilterOperator.values())));
                }
            }
            VisualType type = known ? selected.get(f.column()) : null;
            if (op != null && type != null && !type.allows(op)) {
                out.error(p + ".operator", "operator '" + op.wireName() + "' is not valid for " + type.wireName() + " column "
                        + Identifiers.quote(f.column()) + "; valid: " + operatorNames(type.operators()));
                continue;
            }
            if (op != null) {
                validateValue(p + ".value", op, type, f.value());
            }
        }
    }

    private boolean selectedColumn(String field, String what, String column) {
        if (!Identifiers.check(out, field, what + " column", column)) {
            return false;
        }
        if (!selected.containsKey(column)) {
            out.error(field, what + " column " + Identifiers.quote(column)
                    + " is not selected; select it first (a hidden column is enough)");
            return false;
        }
        return true;
    }

    private void validateValue(String field, FilterOperator op, VisualType type, JsonNode value) {
        boolean absent = value == null || value.isNull() || value.isMissingNode();
        switch (op.valueShape()) {
            case NONE -> {
                if (!absent) {
                    out.error(field, "operator '" + op.wireName() + "' takes no value");
                }
            }
            case SINGLE -> {
                if (absent) {
                    out.error(field, "operator '" + op.wireName() + "' needs a value");
                } else {
                    scalar(field, op, type, value);
                }
            }
            case PAIR, LIST -> {
                if (absent || !value.isArray()) {
                    out.error(field, "operator '" + op.wireName() + "' needs "
                            + (op.valueShape() == FilterOperator.ValueShape.PAIR ? "an array [low, high]" : "a non-empty array of values"));
                } else if (op.valueShape() == FilterOperator.ValueShape.PAIR && value.size() != 2) {
                    out.error(field, "operator 'between' needs exactly two values [low, high], got " + value.size());
                } else if (value.isEmpty() || value.size() > MAX_LIST_VALUES) {
                    out.error(field, "operator '" + op.wireName() + "' needs 1 to " + MAX_LIST_VALUES + " values, got " + value.size());
                } else {
                    for (int k = 0; k < value.size(); k++) {
                        if (!scalar(field + "[" + k + "]", op, type, value.get(k))) {
                            break;
                        }
                    }
                }
            }
        }
    }

    /** Checks one value against the column's type; false after reporting a problem. */
    private boolean scalar(String field, FilterOperator op, VisualType type, JsonNode v) {
        if (!v.isValueNode() || v.isNull()) {
            out.error(field, "a filter value must be a string, number or boolean, got " + kindOf(v));
            return false;
        }
        if (v.isTextual() && v.textValue().length() > MAX_VALUE_CHARS) {
            out.error(field, "value is " + v.textValue().length() + " characters long; at most " + MAX_VALUE_CHARS);
            return false;
        }
        if (type == null) {
            return true;
        }
        String text = v.asText();
        String problem = switch (type) {
            case NUMBER -> v.isNumber() || isNumber(text) ? null : "a number";
            case BOOLEAN -> v.isBoolean() || text.equals("true") || text.equals("false") ? null : "true or false";
            case DATE -> v.isTextual() && parses(DateTimeFormatter.ISO_LOCAL_DATE, text) ? null : "a date yyyy-MM-dd";
            case DATETIME -> v.isTextual() && (parses(DateTimeFormatter.ISO_DATE_TIME, text) || parses(DateTimeFormatter.ISO_LOCAL_DATE, text))
                    ? null : "an ISO date-time, e.g. 2024-05-01T09:30:00Z";
            case TIME -> v.isTextual() && parses(DateTimeFormatter.ISO_TIME, text) ? null : "a time HH:mm[:ss]";
            case UUID -> v.isTextual() && UUID_PATTERN.matcher(text).matches() ? null : "a UUID";
            case ENUM -> v.isTextual() ? null : "a string (one of the enum's labels)";
            default -> null;
        };
        if (problem != null) {
            out.error(field, "value " + Identifiers.quote(text) + " for operator '" + op.wireName() + "' on a "
                    + type.wireName() + " column must be " + problem);
            return false;
        }
        return true;
    }

    private static boolean isNumber(String text) {
        if (text.isEmpty() || text.length() > 100) {
            return false;
        }
        try {
            new BigDecimal(text.trim());
            return true;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /**
     * Whether {@code text} is a complete, valid value of the ISO format. The shape is checked without exceptions
     * (they are costly on a hot path); only a well-shaped text is resolved, which rejects e.g. month 13.
     */
    private static boolean parses(DateTimeFormatter format, String text) {
        if (text.length() > 64) {
            return false;
        }
        ParsePosition pos = new ParsePosition(0);
        if (format.parseUnresolved(text, pos) == null || pos.getErrorIndex() >= 0 || pos.getIndex() != text.length()) {
            return false;
        }
        try {
            format.parse(text);
            return true;
        } catch (DateTimeParseException e) {
            return false;
        }
    }

    private void validateSorts(String path, List<Sort> sorts) {
        if (sorts.size() > MAX_SORTS) {
            out.error(path, "too many sort entries: " + sorts.size() + " (at most " + MAX_SORTS + ")");
        }
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < sorts.size(); i++) {
            Sort s = sorts.get(i);
            String p = path + "[" + i + "]";
            if (s == null) {
                out.error(p, "sort entry is empty");
                continue;
            }
            if (selectedColumn(p + ".column", "sort", s.column()) && !seen.add(s.column())) {
                out.error(p + ".column", "column " + Identifiers.quote(s.column()) + " is sorted twice");
            }
            if (s.direction() == null) {
                out.warning(p + ".direction", "no direction: ascending");
            } else if (SortDirection.parse(s.direction()).isEmpty()) {
                out.error(p + ".direction", "direction " + Identifiers.quote(s.direction()) + " is not asc or desc");
            }
        }
    }

    // ---------------------------------------------------------------- small things

    private void maxLength(String field, String what, String value, int max) {
        if (value != null && value.length() > max) {
            out.error(field, what + " is " + value.length() + " characters long; at most " + max + " are allowed");
        }
    }

    private static String kindOf(JsonNode n) {
        return n.isArray() ? "an array" : n.isObject() ? "an object" : "null";
    }

    public static String operatorNames(Iterable<FilterOperator> ops) {
        StringBuilder s = new StringBuilder();
        for (FilterOperator op : ops) {
            s.append(s.isEmpty() ? "" : ", ").append(op.wireName());
        }
        return s.toString();
    }
}
