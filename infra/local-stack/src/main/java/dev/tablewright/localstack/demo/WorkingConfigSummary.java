package dev.tablewright.localstack.demo;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The working config as the demo model reads it: from the "## Current state" block of the system prompt, the few
 * lines the agent renders there for every model (ConfigSummary and WorkingConfig in shared/agent). The demo model
 * sees nothing else of the config, as a live model would not.
 *
 * @param baseSchema null when the prompt names no base table yet
 * @param configId   the saved config the conversation works on (the editable field {@code config_id}), else null
 */
public record WorkingConfigSummary(String baseSchema, String baseTable, List<Column> columns, String joins,
                                   String filters, String sort, String configId) {

    /** One line of "Columns (n): ...": {@code [table.]name [as alias] [(type[, hidden])]}. */
    public record Column(String table, String name, String alias, String type, boolean hidden) {
        /** The result key the operation tools take. */
        public String key() {
            return alias != null ? alias : name;
        }
    }

    /** One join of the "Joins:" line: {@code LEFT core.warehouses as warehouses on ...}. */
    public record Join(String schema, String table, String alias) {
        public String key() {
            return alias != null ? alias : table;
        }
    }

    private static final Pattern JOIN = Pattern.compile("\\b(?:INNER|LEFT|RIGHT|FULL) (?:(\\w+)\\.)?(\\w+)(?: as (\\w+))? on ");

    /** The joins, read from the "Joins:" line. */
    public List<Join> joinList() {
        List<Join> out = new ArrayList<>();
        Matcher m = JOIN.matcher(joins);
        while (m.find()) {
            out.add(new Join(m.group(1), m.group(2), m.group(3)));
        }
        return out;
    }

    public static final WorkingConfigSummary NONE = new WorkingConfigSummary(null, null, List.of(), "none", "none", "none", null);

    private static final Pattern BASE = Pattern.compile("(?m)^Base table: (?:(\\w+)\\.)?(\\w+)\\s*$");
    private static final Pattern COLUMNS = Pattern.compile("(?m)^Columns \\(\\d+\\): (.*)$");
    private static final Pattern CONFIG_ID = Pattern.compile("(?m)^- config_id: \"([^\"]+)\"");
    private static final Pattern COLUMN = Pattern.compile("^(?:(\\w+)\\.)?(\\w+)(?: as (\\w+))?(?: \\((\\w+)(, hidden)?\\))?$");

    public WorkingConfigSummary {
        columns = List.copyOf(columns);
    }

    public boolean isSaved() {
        return configId != null;
    }

    public boolean hasTable() {
        return baseTable != null;
    }

    public String qualifiedTable() {
        return baseSchema == null ? baseTable : baseSchema + "." + baseTable;
    }

    /** The shown (not hidden) columns' keys, for telling the user what there is. */
    public List<String> shownKeys() {
        return columns.stream().filter(c -> !c.hidden()).map(Column::key).toList();
    }

    private static final Pattern STANDING = Pattern.compile("(?m)^Where it stands: .*?\\bconfig (cfg_[\\w-]+)");

    /**
     * Reads the state block of a system prompt ("## Current state" up to the next heading; the saved config's id from
     * the editable fields, else from the "Where it stands" line); {@link #NONE} when it names no base table.
     */
    public static WorkingConfigSummary fromSystemPrompt(String prompt) {
        String block = section(prompt, "## Current state");
        Matcher base = BASE.matcher(block);
        if (!base.find()) {
            return NONE;
        }
        List<Column> columns = new ArrayList<>();
        Matcher list = COLUMNS.matcher(block);
        if (list.find() && !list.group(1).strip().equals("none")) {
            for (String item : splitOutsideParentheses(list.group(1))) {
                Matcher c = COLUMN.matcher(item.strip());
                if (c.matches()) {
                    columns.add(new Column(c.group(1), c.group(2), c.group(3), c.group(4), c.group(5) != null));
                }
            }
        }
        Matcher configId = CONFIG_ID.matcher(section(prompt, "## Editable fields"));
        Matcher standing = STANDING.matcher(block);
        String id = configId.find() ? configId.group(1) : standing.find() ? standing.group(1) : null;
        return new WorkingConfigSummary(base.group(1), base.group(2), columns, line(block, "Joins"), line(block, "Filters"),
                line(block, "Sort"), id);
    }

    /** From {@code heading} to the next "## " heading; the whole text when there is no such heading. */
    private static String section(String prompt, String heading) {
        int start = prompt.indexOf(heading);
        if (start < 0) {
            return heading.equals("## Current state") ? prompt : "";
        }
        int end = prompt.indexOf("\n## ", start + heading.length());
        return prompt.substring(start, end < 0 ? prompt.length() : end);
    }

    private static String line(String block, String label) {
        Matcher m = Pattern.compile("(?m)^" + label + ": (.*)$").matcher(block);
        return m.find() ? m.group(1).strip() : "none";
    }

    /** "a (number), b (string, hidden)" → ["a (number)", "b (string, hidden)"]. */
    private static List<String> splitOutsideParentheses(String text) {
        List<String> parts = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < text.length(); i++) {
            char ch = text.charAt(i);
            if (ch == '(') {
                depth++;
            } else if (ch == ')') {
                depth--;
            } else if (ch == ',' && depth == 0) {
                parts.add(text.substring(start, i));
                start = i + 1;
            }
        }
        parts.add(text.substring(start));
        return parts;
    }
}
