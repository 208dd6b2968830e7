package dev.tablewright.codec;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.config.ColumnSettings;
import dev.tablewright.config.DataSource;
import dev.tablewright.config.Filter;
import dev.tablewright.config.ForeignTable;
import dev.tablewright.config.Select;
import dev.tablewright.config.SelectColumn;
import dev.tablewright.config.Sort;
import dev.tablewright.config.TableConfig;
import dev.tablewright.config.VisualSettings;
import dev.tablewright.json.Json;
import dev.tablewright.validation.Identifiers;
import dev.tablewright.validation.ValidationCollector;
import dev.tablewright.validation.ValidationError;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads and writes the Config wire format v1. Reading walks the JSON tree by hand so that every wrong type is
 * reported with its field ({@code data_source[0].select.columns[2].name: expected a string, got a number})
 * and all of them at once; unknown fields go to each record's {@code extra} and are written back unchanged.
 * JSON {@code null} counts as absent.
 */
public final class ConfigJson {

    /** A read config, or the reasons it could not be read (then {@code config} is null). */
    public record Read(TableConfig config, List<ValidationError> errors) {
        public boolean ok() {
            return config != null;
        }
    }

    private static final Set<String> CONFIG_KEYS = Set.of("id", "name", "description", "version", "data_source", "visual_settings");
    private static final Set<String> SOURCE_KEYS = Set.of("schema", "source", "select", "filters", "sort");
    private static final Set<String> SELECT_KEYS = Set.of("columns", "foreign_tables");
    private static final Set<String> COLUMN_KEYS = Set.of("name", "table", "alias");
    private static final Set<String> JOIN_KEYS = Set.of("schema", "table", "alias", "join_type", "relationship_from", "relationship_to");
    private static final Set<String> FILTER_KEYS = Set.of("column", "operator", "value", "label");
    private static final Set<String> SORT_KEYS = Set.of("column", "direction");
    private static final Set<String> VISUAL_KEYS = Set.of("page_size", "columns");
    private static final Set<String> SETTINGS_KEYS = Set.of("header", "type", "format", "order", "hidden");

    private ConfigJson() {
    }

    public static Read read(String text) {
        if (text == null) {
            return failed("config", "config is missing");
        }
        if (text.length() > Json.MAX_DOCUMENT_CHARS) {
            return failed("config", "config is " + text.length() + " characters long; at most " + Json.MAX_DOCUMENT_CHARS + " are accepted");
        }
        JsonNode node;
        try {
            node = Json.parse(text);
        } catch (JsonProcessingException e) {
            return failed("config", "config is not valid JSON: " + e.getOriginalMessage());
        }
        return read(node);
    }

    public static Read read(JsonNode node) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            return failed("config", "config is missing");
        }
        if (!node.isObject()) {
            return failed("config", "config must be a JSON object, got " + Json.kind(node));
        }
        ValidationCollector out = new ValidationCollector();
        TableConfig config = new Reader(out).config((ObjectNode) node);
        if (out.hasErrors()) {
            return new Read(null, out.report().errors());
        }
        return new Read(config, List.of());
    }

    private static Read failed(String field, String message) {
        return new Read(null, List.of(new ValidationError(field, message)));
    }

    // ---------------------------------------------------------------- writing

    public static ObjectNode write(TableConfig c) {
        ObjectNode o = Json.object();
        putText(o, "id", c.id());
        putText(o, "name", c.name());
        putText(o, "description", c.description());
        if (c.version() != null) {
            long v = c.version();
            if (v == (int) v) {
                o.put("version", (int) v);
            } else {
                o.put("version", v);
            }
        }
        if (c.dataSource() != null) {
            ArrayNode sources = o.putArray("data_source");
            for (DataSource ds : c.dataSource()) {
                sources.add(write(ds));
            }
        }
        if (c.visualSettings() != null) {
            o.set("visual_settings", write(c.visualSettings()));
        }
        putExtra(o, c.extra());
        return o;
    }

    public static String writeString(TableConfig c) {
        return Json.write(write(c));
    }

    /**
     * A config this service wrote itself (a store's item): it always reads, so one that does not is a fault of the
     * store, not bad input.
     */
    public static TableConfig readWritten(String text) {
        Read read = read(text);
        if (!read.ok()) {
            throw new IllegalStateException("a stored config does not read: " + read.errors().get(0).field() + ": "
                    + read.errors().get(0).message());
        }
        return read.config();
    }

    private static ObjectNode write(DataSource ds) {
        ObjectNode o = Json.object();
        putText(o, "schema", ds.schema());
        putText(o, "source", ds.source());
        if (ds.select() != null) {
            ObjectNode s = o.putObject("select");
            Select select = ds.select();
            if (select.columns() != null) {
                ArrayNode cols = s.putArray("columns");
                for (SelectColumn col : select.columns()) {
                    ObjectNode co = cols.addObject();
                    putText(co, "name", col.name());
                    putText(co, "table", col.table());
                    putText(co, "alias", col.alias());
                    putExtra(co, col.extra());
                }
            }
            if (select.foreignTables() != null) {
                ArrayNode joins = s.putArray("foreign_tables");
                for (ForeignTable ft : select.foreignTables()) {
                    ObjectNode jo = joins.addObject();
                    putText(jo, "schema", ft.schema());
                    putText(jo, "table", ft.table());
                    putText(jo, "alias", ft.alias());
                    putText(jo, "join_type", ft.joinType());
                    putText(jo, "relationship_from", ft.relationshipFrom());
                    putText(jo, "relationship_to", ft.relationshipTo());
                    putExtra(jo, ft.extra());
                }
            }
            putExtra(s, select.extra());
        }
        if (ds.filters() != null) {
            ArrayNode filters = o.putArray("filters");
            for (Filter f : ds.filters()) {
                ObjectNode fo = filters.addObject();
                putText(fo, "column", f.column());
                putText(fo, "operator", f.operator());
                if (f.value() != null && !f.value().isNull() && !f.value().isMissingNode()) {
                    fo.set("value", f.value().deepCopy());
                }
                putText(fo, "label", f.label());
                putExtra(fo, f.extra());
            }
        }
        if (ds.sort() != null) {
            ArrayNode sorts = o.putArray("sort");
            for (Sort s : ds.sort()) {
                ObjectNode so = sorts.addObject();
                putText(so, "column", s.column());
                putText(so, "direction", s.direction());
                putExtra(so, s.extra());
            }
        }
        putExtra(o, ds.extra());
        return o;
    }

    private static ObjectNode write(VisualSettings vs) {
        ObjectNode o = Json.object();
        if (vs.pageSize() != null) {
            o.put("page_size", vs.pageSize());
        }
        if (vs.columns() != null) {
            ObjectNode cols = o.putObject("columns");
            vs.columns().forEach((key, cs) -> {
                ObjectNode co = cols.putObject(key);
                if (cs == null) {
                    return;
                }
                putText(co, "header", cs.header());
                putText(co, "type", cs.type());
                putText(co, "format", cs.format());
                if (cs.order() != null) {
                    co.put("order", cs.order());
                }
                if (cs.hidden() != null) {
                    co.put("hidden", cs.hidden());
                }
                putExtra(co, cs.extra());
            });
        }
        putExtra(o, vs.extra());
        return o;
    }

    private static void putText(ObjectNode o, String key, String value) {
        if (value != null) {
            o.put(key, value);
        }
    }

    private static void putExtra(ObjectNode o, Map<String, JsonNode> extra) {
        if (extra != null) {
            extra.forEach((k, v) -> {
                if (!o.has(k)) {
                    o.set(k, v);
                }
            });
        }
    }

    // ---------------------------------------------------------------- reading

    /** Walks one config; every wrong type is an error at its field, reading goes on. */
    private record Reader(ValidationCollector out) {

        TableConfig config(ObjectNode o) {
            String id = o.path("id").isNumber() ? o.get("id").asText() : text(o, "id", "id");
            Items sources = list(o, "data_source", "data_source", this::dataSource);
            ObjectNode vs = object(o, "visual_settings", "visual_settings");
            return new TableConfig(id, text(o, "name", "name"), text(o, "description", "description"),
                    longValue(o, "version", "version"), sources == null ? null : sources.items(),
                    vs == null ? null : visual(vs, "visual_settings"), extra(o, CONFIG_KEYS));
        }

        DataSource dataSource(ObjectNode o, String path) {
            ObjectNode select = object(o, "select", path + ".select");
            Items filters = list(o, "filters", path + ".filters", this::filter);
            Items sorts = list(o, "sort", path + ".sort", this::sort);
            return new DataSource(text(o, "schema", path + ".schema"), text(o, "source", path + ".source"),
                    select == null ? null : select(select, path + ".select"),
                    filters == null ? null : filters.items(), sorts == null ? null : sorts.items(), extra(o, SOURCE_KEYS));
        }

        Select select(ObjectNode o, String path) {
            Items columns = list(o, "columns", path + ".columns", this::column);
            Items joins = list(o, "foreign_tables", path + ".foreign_tables", this::join);
            return new Select(columns == null ? null : columns.items(), joins == null ? null : joins.items(), extra(o, SELECT_KEYS));
        }

        SelectColumn column(ObjectNode o, String path) {
            return new SelectColumn(text(o, "name", path + ".name"), text(o, "table", path + ".table"),
                    text(o, "alias", path + ".alias"), extra(o, COLUMN_KEYS));
        }

        ForeignTable join(ObjectNode o, String path) {
            return new ForeignTable(text(o, "schema", path + ".schema"), text(o, "table", path + ".table"),
                    text(o, "alias", path + ".alias"), text(o, "join_type", path + ".join_type"),
                    text(o, "relationship_from", path + ".relationship_from"),
                    text(o, "relationship_to", path + ".relationship_to"), extra(o, JOIN_KEYS));
        }

        Filter filter(ObjectNode o, String path) {
            JsonNode value = o.get("value");
            if (value != null && value.isNull()) {
                value = null;
            }
            return new Filter(text(o, "column", path + ".column"), text(o, "operator", path + ".operator"),
                    value, text(o, "label", path + ".label"), extra(o, FILTER_KEYS));
        }

        Sort sort(ObjectNode o, String path) {
            return new Sort(text(o, "column", path + ".column"), text(o, "direction", path + ".direction"), extra(o, SORT_KEYS));
        }

        VisualSettings visual(ObjectNode o, String path) {
            Long pageSize = longValue(o, "page_size", path + ".page_size");
            ObjectNode cols = object(o, "columns", path + ".columns");
            LinkedHashMap<String, ColumnSettings> settings = null;
            if (cols != null) {
                settings = new LinkedHashMap<>();
                Iterator<Map.Entry<String, JsonNode>> it = cols.fields();
                while (it.hasNext()) {
                    Map.Entry<String, JsonNode> e = it.next();
                    String p = path + ".columns" + Identifiers.pathKey(e.getKey());
                    if (!e.getValue().isObject()) {
                        out.error(p, "expected an object, got " + Json.kind(e.getValue()));
                        continue;
                    }
                    settings.put(e.getKey(), settings((ObjectNode) e.getValue(), p));
                }
            }
            return new VisualSettings(pageSize == null ? null : clampInt(pageSize, path + ".page_size"), settings, extra(o, VISUAL_KEYS));
        }

        ColumnSettings settings(ObjectNode o, String path) {
            Long order = longValue(o, "order", path + ".order");
            return new ColumnSettings(text(o, "header", path + ".header"), text(o, "type", path + ".type"),
                    text(o, "format", path + ".format"), order == null ? null : clampInt(order, path + ".order"),
                    bool(o, "hidden", path + ".hidden"), extra(o, SETTINGS_KEYS));
        }

        // -------- primitives

        interface ItemReader<T> {
            T read(ObjectNode o, String path);
        }

        record Items(List items) {
        }

        @SuppressWarnings({"unchecked", "rawtypes"})
        <T> Items list(ObjectNode o, String key, String path, ItemReader<T> reader) {
            JsonNode n = o.get(key);
            if (n == null || n.isNull()) {
                return null;
            }
            if (!n.isArray()) {
                out.error(path, "expected an array, got " + Json.kind(n));
                return null;
            }
            List items = new ArrayList<>(n.size());
            for (int i = 0; i < n.size(); i++) {
                JsonNode item = n.get(i);
                String p = path + "[" + i + "]";
                if (!item.isObject()) {
                    out.error(p, "expected an object, got " + Json.kind(item));
                    continue;
                }
                items.add(reader.read((ObjectNode) item, p));
            }
            return new Items(items);
        }

        ObjectNode object(ObjectNode o, String key, String path) {
            JsonNode n = o.get(key);
            if (n == null || n.isNull()) {
                return null;
            }
            if (!n.isObject()) {
                out.error(path, "expected an object, got " + Json.kind(n));
                return null;
            }
            return (ObjectNode) n;
        }

        String text(ObjectNode o, String key, String path) {
            JsonNode n = o.get(key);
            if (n == null || n.isNull()) {
                return null;
            }
            if (!n.isTextual()) {
                out.error(path, "expected a string, got " + Json.kind(n));
                return null;
            }
            return n.textValue();
        }

        Long longValue(ObjectNode o, String key, String path) {
            JsonNode n = o.get(key);
            if (n == null || n.isNull()) {
                return null;
            }
            if (!n.isIntegralNumber() || !n.canConvertToLong()) {
                out.error(path, "expected an integer, got " + (n.isNumber() ? "a non-integral or too large number" : Json.kind(n)));
                return null;
            }
            return n.longValue();
        }

        Integer clampInt(long value, String path) {
            if (value < Integer.MIN_VALUE || value > Integer.MAX_VALUE) {
                out.error(path, "integer " + value + " is out of range");
                return null;
            }
            return (int) value;
        }

        Boolean bool(ObjectNode o, String key, String path) {
            JsonNode n = o.get(key);
            if (n == null || n.isNull()) {
                return null;
            }
            if (!n.isBoolean()) {
                out.error(path, "expected true or false, got " + Json.kind(n));
                return null;
            }
            return n.booleanValue();
        }

        Map<String, JsonNode> extra(ObjectNode o, Set<String> known) {
            Map<String, JsonNode> extra = null;
            Iterator<Map.Entry<String, JsonNode>> it = o.fields();
            while (it.hasNext()) {
                Map.Entry<String, JsonNode> e = it.next();
                if (!known.contains(e.getKey())) {
                    if (extra == null) {
                        extra = new LinkedHashMap<>();
                    }
                    extra.put(e.getKey(), e.getValue());
                }
            }
            return extra;
        }
    }
}
