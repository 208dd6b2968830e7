package dev.tablewright.localstack.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.catalogue.AgentToolDefinitions;
import dev.tablewright.catalogue.ConfigStoreToolDefinitions;
import dev.tablewright.catalogue.DatabaseToolDefinitions;
import dev.tablewright.catalogue.OperationToolDefinitions;
import dev.tablewright.catalogue.PreviewDecisionDefinitions;
import dev.tablewright.fakes.model.RecordedRequest;
import dev.tablewright.fakes.model.ScriptedTurn;
import dev.tablewright.json.Json;
import dev.tablewright.logging.StructuredLog;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The offline demo model: a few readable rules in place of a language model, so the local stack holds a real
 * conversation without a model key. Each request is answered from what that request carries, never from a count of
 * earlier turns: the last user message says what to do ({@link Ask}), the tool results since it say how far this turn
 * got, and the working config in the system prompt ({@link WorkingConfigSummary}) says what the change builds on.
 *
 * <p>A change is a short plan of real tool calls, the same a live model makes (docs/tools.md): look the names up
 * with {@code search_database_schema} when the config does not hold them, one operation tool, then
 * {@code preview_table_config}; a tool that is not offered yet is found with {@code search_tools} first, and calls
 * that do not wait on each other share a step. Each request recomputes the plan from what it carries and makes its
 * next step, or, when the plan is done, says what the preview shows. A tool that refuses is explained, not
 * repaired. Anything it does not read says what it is and what it understands.
 */
public final class DemoModel implements Function<RecordedRequest, ScriptedTurn> {

    /** The model name the chat is configured with (OPENAI_MODEL), sent with each request. */
    public static final String NAME = "offline-demo";

    /** Examples of the phrasings it reads: in its answers and the banner. */
    public static final List<String> PHRASINGS = List.of(
            "Show stock levels with their warehouse name",
            "Only show quantities above 100",
            "Sort by quantity descending",
            "Add the last counted at column",
            "Remove the reorder level column",
            "Rename quantity to On hand");

    static final String HOW_TO_CONNECT = "For anything else, connect a live model: stop the local stack and start it again "
            + "with OPENAI_API_KEY set (and OPENAI_BASE_URL and OPENAI_MODEL for another OpenAI-compatible endpoint).";

    private static final int MAX_NAME_CHARS = 70;
    /** Saved configs read to pick a free name (the list tool's largest page). */
    private static final int LISTED_CONFIGS = 50;

    @Override
    public ScriptedTurn apply(RecordedRequest request) {
        try {
            return answer(DemoRequest.of(request));
        } catch (RuntimeException e) {
            StructuredLog.of(DemoModel.class).error("the offline demo model could not answer", e);
            return say("My rules tripped over this request, which is my fault, not yours. " + whatIAm());
        }
    }

    /** One tool call the rules want; {@code withPrevious}: made in the same step as the call before it. */
    record Call(String tool, ObjectNode arguments, boolean withPrevious) {
        Call(String tool, ObjectNode arguments) {
            this(tool, arguments, false);
        }
    }

    /**
     * What the rules know for this request: the calls planned so far (those made line up with this turn's steps), a
     * sentence to say with the first step (or null), and what to say once every call is made (null while unknown).
     */
    record Plan(List<Call> calls, String lead, String closing) {
        static Plan say(String text) {
            return new Plan(List.of(), null, text);
        }
    }

    ScriptedTurn.Completion answer(DemoRequest request) {
        List<DemoRequest.ToolStep> done = request.turnSteps();
        if (!done.isEmpty() && done.getLast().name().equals(KEEP_PREVIEW)) {
            // the user answered the approval of the call that keeps the preview (docs/stream-protocol.md#tool-approvals)
            JsonNode kept = done.getLast().result();
            return say(kept != null && kept.path("accepted").asBoolean(false)
                    ? "Saved as version " + kept.path("version").asText("?") + ". Go on with, for example, \"Only show quantities above 100\"."
                    : "Understood: nothing was saved. Tell me what to change.");
        }
        Plan plan = plan(Ask.read(request.lastUserMessage()), request);
        for (int i = 0; i < done.size(); i++) {
            if (i >= plan.calls().size() || !plan.calls().get(i).tool().equals(done.get(i).name())) {
                return say("I lost track of this turn: its tool calls are not the ones my rules would make. " + whatIAm());
            }
        }
        if (!done.isEmpty()) {
            int lastStep = done.getLast().step();
            for (DemoRequest.ToolStep made : done) {
                if (made.step() == lastStep && made.failed()) {
                    return say(refused(made));
                }
            }
        }
        if (done.size() < plan.calls().size()) {
            List<Call> step = new ArrayList<>(List.of(plan.calls().get(done.size())));
            for (int i = done.size() + 1; i < plan.calls().size() && plan.calls().get(i).withPrevious(); i++) {
                step.add(plan.calls().get(i));
            }
            return calls(done.isEmpty() ? plan.lead() : null, step);
        }
        return say(plan.closing() != null ? plan.closing() : "I lost track of this turn. " + whatIAm());
    }

    // the tools it calls, by the catalogue's names
    private static final String SEARCH_TOOLS = AgentToolDefinitions.SEARCH_TOOLS.name();
    /** The call that keeps a preview, answered by the user's approval (docs/stream-protocol.md#tool-approvals). */
    private static final String KEEP_PREVIEW = PreviewDecisionDefinitions.ACCEPT_PREVIEW_NAME;
    private static final String SEARCH_SCHEMA = DatabaseToolDefinitions.SEARCH_DATABASE_SCHEMA.name();
    private static final String COLUMN_CHANGE = OperationToolDefinitions.APPLY_COLUMN_CHANGE.name();
    private static final String JOIN_CHANGE = OperationToolDefinitions.APPLY_JOIN_CHANGE.name();
    private static final String FILTER_CHANGE = OperationToolDefinitions.APPLY_FILTER_CHANGE.name();
    private static final String SORT_CHANGE = OperationToolDefinitions.APPLY_SORT_CHANGE.name();
    private static final String PREVIEW = DatabaseToolDefinitions.PREVIEW_TABLE_CONFIG.name();
    private static final String LIST_CONFIGS = ConfigStoreToolDefinitions.LIST_TABLE_CONFIGS.name();

    /**
     * Whether {@code tool} is found through the catalogue in this turn's plan: it is not offered, or this turn already
     * searched for it (the plan must not change once the search made it offered).
     */
    private static boolean discovers(DemoRequest request, String tool) {
        if (!request.offeredTools().contains(SEARCH_TOOLS)) {
            return false;
        }
        boolean searched = request.turnSteps().stream().anyMatch(s -> s.name().equals(SEARCH_TOOLS)
                && s.arguments() != null && s.arguments().path("query").asText().equals(catalogueQuery(tool)));
        return searched || !request.offeredTools().contains(tool);
    }

    private static String catalogueQuery(String tool) {
        return tool.replace('_', ' ');
    }

    private static Call discovery(String tool, boolean withPrevious) {
        return new Call(SEARCH_TOOLS, Json.object().put("query", catalogueQuery(tool)), withPrevious);
    }

    private Plan plan(Ask ask, DemoRequest request) {
        WorkingConfigSummary config = request.config();
        return switch (ask) {
            case Ask.Build b -> build(b, request);
            case Ask.Help h -> Plan.say("Hello! " + whatIAm());
            case Ask.NotUnderstood n -> Plan.say("I did not understand that. " + whatIAm());
            default -> config.hasTable() ? change(ask, request)
                    : Plan.say("There is no table to change yet: start one, for example with \"" + PHRASINGS.getFirst()
                    + "\". " + whatIAm());
        };
    }

    // ---- a new table ----

    private Plan build(Ask.Build ask, DemoRequest request) {
        WorkingConfigSummary config = request.config();
        if (config.isSaved()) {
            return Plan.say("This conversation works on the saved table on " + config.qualifiedTable() + " (" + config.configId()
                    + "): I change it, I do not start another. For a new table, open a new conversation (New chat on the "
                    + "page, /new in the terminal client).");
        }
        String lead = "Let me look up the " + ask.subjectText() + " table.";
        List<Call> calls = new ArrayList<>();
        calls.add(new Call(SEARCH_SCHEMA, Json.object().put("name", ask.subject().asName()).put("include_columns", true)));
        if (discovers(request, LIST_CONFIGS)) {
            calls.add(discovery(LIST_CONFIGS, true)); // the saved names, so the new table's is free
        }
        JsonNode found = result(request, 0);
        if (found == null) {
            return new Plan(calls, lead, null);
        }
        JsonNode table = null;
        List<JsonNode> startingSo = new ArrayList<>();
        for (JsonNode t : found.path("tables")) {
            Words name = Words.of(t.path("name").asText());
            if (name.equals(ask.subject())) {
                table = t;
                break;
            }
            if (name.startsWith(ask.subject())) {
                startingSo.add(t);
            }
        }
        if (table == null && startingSo.size() == 1) {
            table = startingSo.getFirst(); // "stock" for stock_levels, when no other table starts so
        }
        if (table == null) {
            return new Plan(calls, lead, "I found no table called \"" + ask.subjectText() + "\" in the database. " + whatIAm());
        }
        String schema = table.path("schema").asText();
        String source = table.path("name").asText();

        // each "with" part: a column of the table, or a column of a table it references
        List<ObjectNode> named = new ArrayList<>();
        Map<Reference, List<String>> joins = new LinkedHashMap<>();
        List<String> leftOut = new ArrayList<>();
        for (int i = 0; i < ask.with().size(); i++) {
            Words part = ask.with().get(i);
            JsonNode column = columnNamed(table, part);
            if (column != null) {
                named.add(columnArgument(column));
                continue;
            }
            Reference reference = null;
            Words rest = null;
            for (Reference r : references(table)) {
                for (Words prefix : List.of(Words.of(r.table()), Words.of(r.fromColumn().replaceFirst("_id$", "")))) {
                    if (reference == null && part.startsWith(prefix)) {
                        reference = r;
                        rest = part.after(prefix);
                    }
                }
            }
            if (reference != null) {
                // "with their warehouse" alone: the referenced table's name column
                joins.computeIfAbsent(reference, r -> new ArrayList<>()).add(rest.isEmpty() ? "name" : rest.asName());
            } else {
                leftOut.add(ask.withText().get(i));
            }
        }
        List<ObjectNode> columns = new ArrayList<>();
        if (named.isEmpty()) {
            // nothing of the table itself named: its first three columns, leaving out the keys the joins replace
            for (JsonNode c : table.path("columns")) {
                boolean joinKey = joins.keySet().stream().anyMatch(r -> r.fromColumn().equals(c.path("name").asText()));
                if (!joinKey && columns.size() < 3) {
                    columns.add(columnArgument(c));
                }
            }
        } else {
            columns.addAll(named);
        }
        calls.add(new Call(LIST_CONFIGS, Json.object().put("limit", LISTED_CONFIGS)));
        if (!joins.isEmpty() && discovers(request, JOIN_CHANGE)) {
            calls.add(discovery(JOIN_CHANGE, true));
        }
        JsonNode listed = result(request, calls.stream().map(Call::tool).toList().indexOf(LIST_CONFIGS));
        if (listed == null) {
            return new Plan(calls, lead, null);
        }
        String title = capitalised(ask.subjectText()) + (ask.withText().isEmpty() ? "" : " with " + String.join(" and ", ask.withText()));
        ObjectNode newConfig = Json.object().put("name", freeName(clip(title), listed));
        newConfig.putArray("data_source").addObject().put("schema", schema).put("source", source).putObject("select").putArray("columns");
        newConfig.putObject("visual_settings").putObject("columns");
        ObjectNode addColumns = Json.object();
        addColumns.set("config", newConfig);
        addColumns.put("operation", "add");
        addColumns.set("columns", Json.MAPPER.valueToTree(columns));
        calls.add(new Call(COLUMN_CHANGE, addColumns));
        joins.forEach((r, names) -> {
            ObjectNode join = Json.object();
            join.put("operation", "add");
            ObjectNode j = join.putObject("join").put("table", r.table()).put("schema", r.schema())
                    .put("relationship_from", source + "." + r.fromColumn()).put("relationship_to", r.table() + "." + r.toColumn());
            ArrayNode add = j.putArray("columns_to_add");
            names.stream().distinct().forEach(add::add);
            calls.add(new Call(JOIN_CHANGE, join));
        });
        calls.add(preview(title));
        String closing = closing(request, calls)
                + (leftOut.isEmpty() ? "" : " I left out " + quoted(leftOut) + ": neither a column of " + source
                + " nor of a table it references.")
                + " Accept it to save the table, or reject it; then you can go on with, for example, \""
                + filterExample(table) + "\" or \"Sort by " + sortExample(table) + " descending\".";
        return new Plan(calls, lead, closing);
    }

    /** {@code title}, or the first "title N" no saved config of the user's is named (names are unique per user). */
    private static String freeName(String title, JsonNode listed) {
        java.util.Set<String> taken = new java.util.HashSet<>();
        listed.path("configs").forEach(c -> taken.add(c.path("name").asText().toLowerCase(java.util.Locale.ROOT)));
        String name = title;
        for (int n = 2; taken.contains(name.toLowerCase(java.util.Locale.ROOT)); n++) {
            name = title + " " + n;
        }
        return name;
    }

    /** A foreign key of the described table, from its {@code references}: "(warehouse_id) -> core.warehouses(id)". */
    record Reference(String fromColumn, String schema, String table, String toColumn) {
    }

    private static final Pattern REFERENCE = Pattern.compile("^\\((\\w+)\\) -> (\\w+)\\.(\\w+)\\((\\w+)\\)$");

    private static List<Reference> references(JsonNode table) {
        List<Reference> out = new ArrayList<>();
        for (JsonNode r : table.path("references")) {
            Matcher m = REFERENCE.matcher(r.asText());
            if (m.matches()) {
                out.add(new Reference(m.group(1), m.group(2), m.group(3), m.group(4)));
            }
        }
        return out;
    }

    // ---- a change to the working config ----

    private Plan change(Ask ask, DemoRequest request) {
        WorkingConfigSummary config = request.config();
        List<DemoRequest.ToolStep> done = request.turnSteps();
        String tool = ask instanceof Ask.Filter ? FILTER_CHANGE : ask instanceof Ask.Sort ? SORT_CHANGE : COLUMN_CHANGE;
        List<Call> calls = new ArrayList<>();
        // once this turn made the change, its arguments say which column: the working config has changed since
        for (DemoRequest.ToolStep step : done) {
            calls.add(new Call(step.name(), Json.object()));
            if (step.name().equals(tool)) {
                calls.add(preview(description(ask, Target.of(step.arguments()))));
                return new Plan(calls, null, closing(request, calls) + " Accept it to save the change, or reject it to keep the table as it is.");
            }
        }
        calls.clear();

        Words words = switch (ask) {
            case Ask.Filter f -> f.column();
            case Ask.Sort s -> s.column();
            case Ask.Remove r -> r.column();
            case Ask.Rename r -> r.column();
            case Ask.Add a -> a.column();
            default -> throw new IllegalStateException("not a change: " + ask);
        };
        boolean searched = !done.isEmpty() && done.getFirst().name().equals(SEARCH_SCHEMA);
        WorkingConfigSummary.Column selected = searched ? null : selectedColumn(config, words);
        Target target;
        String searchLead = null;
        if (ask instanceof Ask.Add && selected != null) {
            return Plan.say("The " + selected.key() + " column is already in the table" + (selected.hidden() ? " (hidden)." : "."));
        } else if (ask instanceof Ask.Remove || ask instanceof Ask.Rename) {
            if (selected == null) {
                return Plan.say("The table has no column \"" + words + "\". Its columns are " + String.join(", ", config.shownKeys()) + ".");
            }
            target = new Target(selected.key(), null);
        } else if (selected != null) {
            target = new Target(selected.key(), null);
        } else {
            // not in the config: look it up in the table it would come from (a joined one when the words start with it)
            String schema = config.baseSchema();
            String table = config.baseTable();
            String sourceTable = null;
            Words rest = words;
            for (WorkingConfigSummary.Join j : config.joinList()) {
                for (Words prefix : List.of(Words.of(j.key()), Words.of(j.table()))) {
                    if (sourceTable == null && words.startsWith(prefix) && words.list().size() > prefix.list().size()) {
                        schema = j.schema() != null ? j.schema() : config.baseSchema();
                        table = j.table();
                        sourceTable = j.key();
                        rest = words.after(prefix);
                    }
                }
            }
            ObjectNode search = Json.object();
            if (schema != null) {
                search.put("schema", schema);
            }
            searchLead = "Let me look up " + words + " in " + table + ".";
            calls.add(new Call(SEARCH_SCHEMA, search.put("table", table)));
            if (discovers(request, tool)) {
                calls.add(discovery(tool, true));
            }
            JsonNode found = result(request, 0);
            if (found == null) {
                return new Plan(calls, searchLead, null);
            }
            JsonNode match = columnNamed(found.path("tables").path(0), rest);
            if (match == null) {
                List<String> names = new ArrayList<>();
                found.path("tables").path(0).path("columns").forEach(c -> names.add(c.path("name").asText()));
                return new Plan(calls, searchLead, table + " has no column \"" + rest + "\". Its columns are " + String.join(", ", names) + ".");
            }
            target = new Target(match.path("name").asText(), sourceTable);
        }
        String column = target.column();
        ObjectNode arguments;
        String lead;
        switch (ask) {
            case Ask.Filter f -> {
                ObjectNode filter = target.as("column").put("operator", f.operator());
                if (f.value() instanceof Long n) {
                    filter.put("value", n);
                } else if (f.value() instanceof BigDecimal d) {
                    filter.put("value", d);
                } else {
                    filter.put("value", String.valueOf(f.value()));
                }
                arguments = Json.object().put("operation", "add");
                arguments.set("filter", filter);
                lead = "Adding a filter: " + column + " " + operatorWords(f.operator()) + " " + f.value() + ".";
            }
            case Ask.Sort s -> {
                arguments = Json.object().put("operation", "set");
                arguments.putArray("sort").add(target.as("column").put("direction", s.direction()));
                lead = "Sorting by " + column + (s.direction().equals("desc") ? " descending." : " ascending.");
            }
            case Ask.Remove r -> {
                arguments = Json.object().put("operation", "remove");
                arguments.putArray("columns").add(target.as("name"));
                lead = "Removing the " + column + " column.";
            }
            case Ask.Rename r -> {
                arguments = Json.object().put("operation", "update");
                arguments.putArray("columns").add(target.as("name").put("header", r.header()));
                lead = "Renaming the " + column + " column to \"" + r.header() + "\".";
            }
            case Ask.Add a -> {
                arguments = Json.object().put("operation", "add");
                arguments.putArray("columns").add(target.as("name"));
                lead = null;
            }
            default -> throw new IllegalStateException("not a change: " + ask);
        }
        if (searchLead == null && discovers(request, tool)) {
            calls.add(discovery(tool, false));
        }
        calls.add(new Call(tool, arguments));
        calls.add(preview(description(ask, target)));
        return new Plan(calls, searchLead != null ? searchLead : lead, null);
    }

    /**
     * The column a change is about: its result key, or its name with the join it comes from. The filter, sort and
     * column arguments all carry it the same way ({@code column} or {@code name}, and {@code source_table}).
     */
    record Target(String column, String sourceTable) {
        static Target of(JsonNode arguments) {
            JsonNode holder = arguments.has("filter") ? arguments.get("filter")
                    : arguments.has("sort") ? arguments.path("sort").path(0) : arguments.path("columns").path(0);
            String column = holder.hasNonNull("column") ? holder.get("column").asText() : holder.path("name").asText("?");
            return new Target(column, holder.hasNonNull("source_table") ? holder.get("source_table").asText() : null);
        }

        /** The column as an argument object: {@code {key: column, source_table}}. */
        ObjectNode as(String key) {
            ObjectNode out = Json.object().put(key, column);
            if (sourceTable != null) {
                out.put("source_table", sourceTable);
            }
            return out;
        }
    }

    private static String description(Ask ask, Target target) {
        String column = target.column();
        return switch (ask) {
            case Ask.Filter f -> "Only rows with " + column + " " + operatorWords(f.operator()) + " " + f.value();
            case Ask.Sort s -> "Sorted by " + column + (s.direction().equals("desc") ? ", descending" : ", ascending");
            case Ask.Remove r -> "Without the " + column + " column";
            case Ask.Rename r -> "The " + column + " column headed \"" + r.header() + "\"";
            case Ask.Add a -> "With the " + (target.sourceTable() != null ? target.sourceTable() + " " : "") + column + " column";
            default -> column;
        };
    }

    /** The column of the working config the words name: by its key, its name, or its table and name. */
    private static WorkingConfigSummary.Column selectedColumn(WorkingConfigSummary config, Words words) {
        for (WorkingConfigSummary.Column c : config.columns()) {
            if (Words.of(c.key()).equals(words) || Words.of(c.name()).equals(words)) {
                return c;
            }
        }
        for (WorkingConfigSummary.Column c : config.columns()) {
            if (c.table() != null && Words.of(c.table() + " " + c.name()).equals(words)) {
                return c;
            }
        }
        return null;
    }

    /** The column of a described table (search_database_schema) the words name, or null. */
    private static JsonNode columnNamed(JsonNode table, Words words) {
        for (JsonNode c : table.path("columns")) {
            if (Words.of(c.path("name").asText()).equals(words)) {
                return c;
            }
        }
        return null;
    }

    private static ObjectNode columnArgument(JsonNode described) {
        return Json.object().put("name", described.path("name").asText()).put("pg_type", described.path("type").asText());
    }

    // ---- what it says ----

    private static Call preview(String description) {
        return new Call(PREVIEW, Json.object().put("description", description));
    }

    /** After the last preview of the plan: what it shows, from the preview's own answer. */
    private static String closing(DemoRequest request, List<Call> calls) {
        JsonNode previewed = result(request, calls.size() - 1);
        if (previewed == null) {
            return "";
        }
        int rows = previewed.path("rows").size();
        String what = previewed.path("isUpdate").asBoolean(false)
                ? "an update of version " + previewed.path("baseVersion").asText("?")
                : "a new table";
        return "Here is the preview, " + what + ": " + lowerFirst(previewed.path("description").asText("the change"))
                + " (" + rows + (previewed.path("more").asBoolean(false) ? "+" : "") + " sample rows).";
    }

    /** A refused step in plain words: which tool, and what it said. */
    private static String refused(DemoRequest.ToolStep step) {
        StringBuilder text = new StringBuilder("That did not go through: ").append(step.name()).append(" answered");
        JsonNode result = step.result();
        if (result == null) {
            text.append(" something I cannot read.");
        } else if (result.hasNonNull("error")) {
            JsonNode error = result.get("error");
            text.append(": ").append(error.isTextual() ? error.asText() : error.path("message").asText(Json.write(error)));
        } else {
            List<String> errors = new ArrayList<>();
            for (JsonNode e : result.path("errors")) {
                String field = e.path("field").asText("");
                errors.add((field.isEmpty() ? "" : field + ": ") + e.path("message").asText(e.asText()));
            }
            text.append(": ").append(String.join("; ", errors));
        }
        if (text.charAt(text.length() - 1) != '.') {
            text.append('.');
        }
        return text.append(" I am the offline demo model: I do not repair a refused change myself. Try another phrasing, or ")
                .append(Character.toLowerCase(HOW_TO_CONNECT.charAt(0))).append(HOW_TO_CONNECT.substring(1)).toString();
    }

    /** What it is, what it reads, and how to connect a live model: said whenever it cannot help. */
    static String whatIAm() {
        return "I am the offline demo model of the local stack: a few fixed rules, not a language model, so I only "
                + "understand phrasings like these, over the sample database (stock levels, warehouses, items, orders, "
                + "order lines, customers, users): " + quoted(PHRASINGS) + ". " + HOW_TO_CONNECT;
    }

    /** A column of the described table that is neither a key nor a reference: what the follow-up examples name. */
    private static List<JsonNode> plainColumns(JsonNode table) {
        List<String> keys = new ArrayList<>();
        table.path("primaryKey").forEach(k -> keys.add(k.asText()));
        references(table).forEach(r -> keys.add(r.fromColumn()));
        List<JsonNode> out = new ArrayList<>();
        table.path("columns").forEach(c -> {
            if (!keys.contains(c.path("name").asText())) {
                out.add(c);
            }
        });
        return out;
    }

    private static String filterExample(JsonNode table) {
        for (JsonNode c : plainColumns(table)) {
            String type = c.path("type").asText();
            if (type.equals("integer") || type.equals("bigint") || type.startsWith("numeric")) {
                return "Only show rows with " + c.path("name").asText().replace('_', ' ') + " above 100";
            }
        }
        return PHRASINGS.get(1);
    }

    private static String sortExample(JsonNode table) {
        List<JsonNode> plain = plainColumns(table);
        return plain.isEmpty() ? "quantity" : plain.getFirst().path("name").asText().replace('_', ' ');
    }

    private static String operatorWords(String operator) {
        return switch (operator) {
            case "gt" -> "above";
            case "lt" -> "below";
            case "gte" -> "at least";
            case "lte" -> "at most";
            case "neq" -> "not equal to";
            case "contains" -> "containing";
            case "starts_with" -> "starting with";
            default -> "equal to";
        };
    }

    private static String quoted(List<String> phrases) {
        return String.join(", ", phrases.stream().map(p -> "\"" + p + "\"").toList());
    }

    private static String capitalised(String s) {
        return s.isEmpty() ? s : Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }

    private static String lowerFirst(String s) {
        return s.isEmpty() ? s : Character.toLowerCase(s.charAt(0)) + s.substring(1);
    }

    private static String clip(String s) {
        return s.length() <= MAX_NAME_CHARS ? s : s.substring(0, MAX_NAME_CHARS).strip();
    }

    /** The result of this turn's {@code index}-th tool call, or null when it has not been made yet. */
    private static JsonNode result(DemoRequest request, int index) {
        List<DemoRequest.ToolStep> done = request.turnSteps();
        if (index < 0 || index >= done.size()) {
            return null;
        }
        JsonNode result = done.get(index).result();
        return result == null ? Json.object() : result;
    }

    // ---- the completion ----

    private static ScriptedTurn.Completion say(String text) {
        ScriptedTurn.Step[] deltas = sentences(text).stream().map(ScriptedTurn.Step.Text::new).toArray(ScriptedTurn.Step[]::new);
        return new ScriptedTurn.Completion(List.of(deltas), null, null);
    }

    /** One step of tool calls, after {@code lead} when there is one. */
    private static ScriptedTurn.Completion calls(String lead, List<Call> calls) {
        List<ScriptedTurn.Step> steps = new ArrayList<>();
        if (lead != null) {
            sentences(lead).forEach(s -> steps.add(new ScriptedTurn.Step.Text(s)));
        }
        for (int i = 0; i < calls.size(); i++) {
            steps.add(new ScriptedTurn.Step.ToolCallStart(i, "call_" + UUID.randomUUID().toString().replace("-", "").substring(0, 20),
                    calls.get(i).tool()));
            steps.add(new ScriptedTurn.Step.ToolArguments(i, Json.write(calls.get(i).arguments())));
        }
        return new ScriptedTurn.Completion(steps, null, null);
    }

    /** The text in a few deltas, as a streaming model sends it. */
    private static List<String> sentences(String text) {
        List<String> out = new ArrayList<>();
        Matcher m = Pattern.compile("[^.:!?]+[.:!?]*\\s*").matcher(text);
        while (m.find()) {
            out.add(m.group());
        }
        return out.isEmpty() ? List.of(text) : out;
    }
}
