package dev.tablewright.eval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.json.Json;
import dev.tablewright.json.JsonFields;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads a task file: JSON Lines, one task per line (blank lines skipped), every problem of every line named at once
 * ({@code tasks.jsonl:7: expect.sql: expected a string, got a number}). The format is in docs/evaluation.md.
 */
public final class TaskFile {

    /** The bundled corpus, on the class path. */
    public static final String CORPUS = "/eval/corpus.jsonl";

    private static final Pattern ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");
    private static final Set<String> TASK_FIELDS = Set.of("id", "turns", "expect", "database", "tags");
    private static final Set<String> EXPECT_FIELDS = Set.of("sql", "ordered", "orderKey", "rows", "headers", "refuse");

    /** A file that does not read as tasks, with every problem. */
    public static final class Invalid extends Exception {
        private final List<String> problems;

        Invalid(String source, List<String> problems) {
            super(source + " is not a valid task file:\n  " + String.join("\n  ", problems));
            this.problems = List.copyOf(problems);
        }

        public List<String> problems() {
            return problems;
        }
    }

    private TaskFile() {
    }

    public static List<EvalTask> read(Path file) throws IOException, Invalid {
        return parse(Files.readString(file), file.toString());
    }

    /** The bundled corpus ({@value #CORPUS}). */
    public static List<EvalTask> corpus() throws Invalid {
        try (InputStream in = TaskFile.class.getResourceAsStream(CORPUS)) {
            if (in == null) {
                throw new IllegalStateException(CORPUS + " is missing from the classpath");
            }
            return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8), "the bundled corpus (infra/eval/src/main/resources" + CORPUS + ")");
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + CORPUS, e);
        }
    }

    /** Every task of {@code text}; {@code source} names it in problems. */
    public static List<EvalTask> parse(String text, String source) throws Invalid {
        List<String> problems = new ArrayList<>();
        List<EvalTask> tasks = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].strip();
            if (line.isEmpty()) {
                continue;
            }
            String where = "line " + (i + 1);
            List<String> lineProblems = new ArrayList<>();
            EvalTask task = task(line, (path, message) -> lineProblems.add(where + ": " + (path.isEmpty() ? "" : path + ": ") + message));
            if (task != null && !ids.add(task.id())) {
                lineProblems.add(where + ": id: task '" + task.id() + "' appears twice");
            }
            if (lineProblems.isEmpty() && task != null) {
                tasks.add(task);
            }
            problems.addAll(lineProblems);
        }
        if (tasks.isEmpty() && problems.isEmpty()) {
            problems.add("no tasks");
        }
        if (!problems.isEmpty()) {
            throw new Invalid(source, problems);
        }
        return List.copyOf(tasks);
    }

    private static EvalTask task(String line, JsonFields.Problems problems) {
        JsonNode node;
        try {
            node = Json.parse(line);
        } catch (IOException | RuntimeException e) {
            problems.report("", "not JSON: " + firstLine(e.getMessage()));
            return null;
        }
        if (!(node instanceof ObjectNode object)) {
            problems.report("", "a task is a JSON object, got " + Json.kind(node));
            return null;
        }
        JsonFields fields = JsonFields.of(object, "", problems, JsonFields.Wording.PLAIN);
        fields.refuseUnknown(TASK_FIELDS);
        String id = fields.text("id");
        if (id == null) {
            fields.problem("id", "required");
        } else if (!ID.matcher(id).matches()) {
            fields.problem("id", "1-64 letters, digits or . _ - (starting with a letter or digit)");
        }
        List<String> turns = fields.texts("turns");
        if (turns == null || turns.isEmpty()) {
            fields.problem("turns", "at least one user message");
        } else {
            for (int i = 0; i < turns.size(); i++) {
                if (turns.get(i).isBlank()) {
                    problems.report("turns[" + i + "]", "a user message is not blank");
                }
            }
        }
        String database = fields.text("database");
        if (database != null && !EvalStack.TWO_SOURCES.contains(database)) {
            fields.problem("database", "one of " + EvalStack.TWO_SOURCES + " (the data sources of the deployment with two)");
        }
        Set<String> tags = new LinkedHashSet<>();
        List<String> tagList = fields.texts("tags");
        if (tagList != null) {
            tags.addAll(tagList);
        }
        EvalTask.Expectation expect = null;
        JsonFields e = fields.at("expect");
        if (e == null) {
            if (!fields.has("expect")) {
                fields.problem("expect", "required: {\"sql\": \"SELECT ...\"} or {\"refuse\": true}");
            }
        } else {
            expect = expectation(e);
        }
        if (id == null || turns == null || expect == null) {
            return null;
        }
        return new EvalTask(id, turns, expect, database, tags);
    }

    private static EvalTask.Expectation expectation(JsonFields e) {
        e.refuseUnknown(EXPECT_FIELDS);
        String sql = e.text("sql");
        Boolean refuse = e.bool("refuse");
        if (Boolean.TRUE.equals(refuse)) {
            if (sql != null || e.has("ordered") || e.has("orderKey") || e.has("rows") || e.has("headers")) {
                e.problem("refuse", "a refusal has no sql, ordered, orderKey, rows or headers");
                return null;
            }
            return new EvalTask.Refusal();
        }
        if (refuse != null) {
            e.problem("refuse", "only true (leave it out for a table)");
        }
        if (sql == null || sql.isBlank()) {
            e.problem("sql", "required (or \"refuse\": true)");
            return null;
        }
        boolean ordered = Boolean.TRUE.equals(e.bool("ordered"));
        List<Integer> orderKey = new ArrayList<>();
        ArrayNode key = e.array("orderKey");
        if (key != null) {
            if (!ordered) {
                e.problem("orderKey", "only with \"ordered\": true");
            }
            for (int i = 0; i < key.size(); i++) {
                JsonNode k = key.get(i);
                if (k.isIntegralNumber() && k.asInt() >= 1) {
                    orderKey.add(k.asInt());
                } else {
                    e.problem("orderKey[" + i + "]", "a column position, 1 or more");
                }
            }
        }
        Long rows = e.integer("rows");
        if (rows != null && (rows < 0 || rows > Integer.MAX_VALUE)) {
            e.problem("rows", "a row count, 0 or more");
            rows = null;
        }
        Map<Integer, String> headers = new TreeMap<>();
        ObjectNode headerNode = e.object("headers");
        if (headerNode != null) {
            headerNode.properties().forEach(h -> {
                Integer position = h.getKey().matches("[1-9][0-9]{0,3}") ? Integer.valueOf(h.getKey()) : null;
                if (position == null) {
                    e.problem("headers", "keys are column positions, 1 or more; got '" + h.getKey() + "'");
                } else if (!h.getValue().isTextual() || h.getValue().asText().isBlank()) {
                    e.problem("headers." + h.getKey(), "a header text");
                } else {
                    headers.put(position, h.getValue().asText().strip());
                }
            });
        }
        return new EvalTask.ResultSet(sql.strip(), ordered, orderKey, rows == null ? null : rows.intValue(), headers);
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "unreadable";
        }
        int nl = message.indexOf('\n');
        return nl < 0 ? message : message.substring(0, nl);
    }
}
