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
import dev.tablewright.json.JsonFields;
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
        Reader reader = new Reader(out);
        TableConfig config = reader.config(reader.fields((ObjectNode) node));
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
        Json.putIfPresent(o, "id", c.id());
        Json.putIfPresent(o, "name", c.name());
        Json.putIfPresent(o, "description", c.description());
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
        Json.putIfPresent(o, "schema", ds.schema());
        Json.putIfPresent(o, "source", ds.source());
        if (ds.select() != null) {
            ObjectNode s = o.putObject("select");
            Select select = ds.select();
            if (select.columns() != null) {
                ArrayNode cols = s.putArray("columns");
                for (SelectColumn col : select.columns()) {
                    ObjectNode co = cols.addObject();
                    Json.putIfPresent(co, "name", col.name());
                    Json.putIfPresent(co, "table", col.table());
                    Json.putIfPresent(co, "alias", col.alias());
                    putExtra(co, col.extra());
                }
            }
            if (select.foreignTables() != null) {
                ArrayNode joins = s.putArray("foreign_tables");
                for (ForeignTable ft : select.foreignTables()) {
                    ObjectNode jo = joins.addObject();
                    Json.putIfPresent(jo, "schema", ft.schema());
                    Json.putIfPresent(jo, "table", ft.table());
                    Json.putIfPresent(jo, "alias", ft.alias());
                    Json.putIfPresent(jo, "join_type", ft.joinType());
                    Json.putIfPresent(jo, "relationship_from", ft.relationshipFrom());
                    Json.putIfPresent(jo, "relationship_to", ft.relationshipTo());
                    putExtra(jo, ft.extra());
                }
            }
            putExtra(s, select.extra());
        }
        if (ds.filters() != null) {
            ArrayNode filters = o.putArray("filters");
            for (Filter f : ds.filters()) {
                ObjectNode fo = filters.addObject();
                Json.putIfPresent(fo, "column", f.column());
                Json.putIfPresent(fo, "operator", f.operator());
                if (f.value() != null && !f.value().isNull() && !f.value().isMissingNode()) {
                    fo.set("value", f.value().deepCopy());
                }
                Json.putIfPresent(fo, "label", f.label());
                putExtra(fo, f.extra());
            }
        }
        if (ds.sort() != null) {
            ArrayNode sorts = o.putArray("sort");
            for (Sort s : ds.sort()) {
                ObjectNode so = sorts.addObject();
                Json.putIfPresent(so, "column", s.column());
                Json.putIfPresent(so, "direction", s.direction());
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
                Json.putIfPresent(co, "header", cs.header());
                Json.putIfPresent(co, "type", cs.type());
                Json.putIfPresent(co, "format", cs.format());
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

    /** Reads the records through {@link JsonFields}: every wrong type a problem on its path, reading going on. */
    private record Reader(ValidationCollector out) {

        JsonFields fields(ObjectNode o) {
            return JsonFields.of(o, "", out::error, JsonFields.Wording.PLAIN);
        }

        TableConfig config(JsonFields o) {
            String id = o.value("id") != null && o.value("id").isNumber() ? o.value("id").asText() : o.text("id");
            List<DataSource> sources = o.objects("data_source", this::dataSource);
            JsonFields vs = o.at("visual_settings");
            return new TableConfig(id, o.text("name"), o.text("description"), o.integer("version"), sources,
                    vs == null ? null : visual(vs), o.unknown(CONFIG_KEYS));
        }

        DataSource dataSource(JsonFields o) {
            JsonFields select = o.at("select");
            List<Filter> filters = o.objects("filters", this::filter);
            List<Sort> sorts = o.objects("sort", this::sort);
            return new DataSource(o.text("schema"), o.text("source"), select == null ? null : select(select), filters, sorts,
                    o.unknown(SOURCE_KEYS));
        }

        Select select(JsonFields o) {
            return new Select(o.objects("columns", this::column), o.objects("foreign_tables", this::join), o.unknown(SELECT_KEYS));
        }

        SelectColumn column(JsonFields o) {
            return new SelectColumn(o.text("name"), o.text("table"), o.text("alias"), o.unknown(COLUMN_KEYS));
        }

        ForeignTable join(JsonFields o) {
            return new ForeignTable(o.text("schema"), o.text("table"), o.text("alias"), o.text("join_type"),
                    o.text("relationship_from"), o.text("relationship_to"), o.unknown(JOIN_KEYS));
        }

        Filter filter(JsonFields o) {
            return new Filter(o.text("column"), o.text("operator"), o.value("value"), o.text("label"), o.unknown(FILTER_KEYS));
        }

        Sort sort(JsonFields o) {
            return new Sort(o.text("column"), o.text("direction"), o.unknown(SORT_KEYS));
        }

        VisualSettings visual(JsonFields o) {
            Integer pageSize = o.int32("page_size");
            ObjectNode cols = o.object("columns");
            LinkedHashMap<String, ColumnSettings> settings = null;
            if (cols != null) {
                settings = new LinkedHashMap<>();
                Iterator<Map.Entry<String, JsonNode>> it = cols.fields();
                while (it.hasNext()) {
                    Map.Entry<String, JsonNode> e = it.next();
                    JsonFields entry = o.element(e.getValue(), o.path("columns") + Identifiers.pathKey(e.getKey()));
                    if (entry != null) {
                        settings.put(e.getKey(), settings(entry));
                    }
                }
            }
            return new VisualSettings(pageSize, settings, o.unknown(VISUAL_KEYS));
        }

        ColumnSettings settings(JsonFields o) {
            return new ColumnSettings(o.text("header"), o.text("type"), o.text("format"), o.int32("order"), o.bool("hidden"),
                    o.unknown(SETTINGS_KEYS));
        }
    }
}
