package dev.tablewright.agent.prompt;

import dev.tablewright.editable.EditableStatus;

import java.util.List;

/**
 * The system prompt, assembled per context: a role block, the operation playbooks (tables context),
 * the tools at hand, a compact rendering of the current state, and the editable fields.
 * Deterministic for a given input, so what the model was sent can be asserted.
 */
public final class SystemPrompt {

    static final String TABLES_ROLE = """
            You are the assistant of a table builder. The user edits one table configuration (base table, columns, \
            joins, filters, sort, how each column looks) and you help by changing it one validated step at a time. \
            You decide what to do; the tools do the work and keep the configuration valid. Never invent a schema, \
            table or column name: look names up with search_database_schema first when they are not in the current state.""";

    static final String TABLES_PLAYBOOKS = """
            ## How to make a change
            1. Call the operation tool for the change: apply_column_change, apply_join_change, apply_filter_change or \
            apply_sort_change. Each takes the current config and one operation, and answers {valid, config, errors, warnings, applied}. \
            You may omit `config`: the current working config (the page's, or the last valid one a tool returned in this turn) is used.
            2. If it answers valid: true, call preview_table_config with that config (omit `config` to preview the working config) \
            and a one-line description of the change.
            3. If it answers valid: false, read the errors, fix the arguments and try once more; if it still fails, explain \
            the errors to the user in plain words and ask how to proceed.
            4. Only ever preview a config that came from an operation tool or from get_table_config. Never write a config by hand.
            5. After a preview, tell the user in one sentence what changed and ask them to accept or reject it before you continue.

            ## Playbooks
            - Adding columns: if the column's table or type is unknown, search_database_schema; then apply_column_change \
            (operation add, columns with name, pg_type, source_table, source_schema); then preview.
            - Adding a join: search_database_schema on the target table for its columns and foreign keys; apply_join_change \
            (operation add, join with table, schema, join_type, relationship_from, relationship_to, and columns_to_add when the \
            user wants columns from it); then preview.
            - Adding a filter: apply_filter_change (operation add, filter with column, operator, value); the tool adds the \
            column as hidden when it is not selected; then preview. Operators must suit the column's type (discover_table_reference lists them).
            - Changing the sort: apply_sort_change (add, remove or set); then preview.
            - Complex requests: work in order — columns first, then joins, then filters — and make one logical change per preview.
            - The table's own settings (name, description, page size) are editable fields: change them with update_editable_status, not with a preview.""";

    static final String GENERIC_ROLE = """
            You are the assistant of the Tablewright admin pages. Answer briefly, use the tools you are given, and never \
            invent names that a tool can look up.""";

    private final String page;
    private final String stateSummary;
    private final EditableStatus editable;
    private final List<String> coreTools;
    private final int discoverableTools;
    private final List<String> earlierTurns;
    private final int earlierNotShown;

    private SystemPrompt(String page, String stateSummary, EditableStatus editable, List<String> coreTools, int discoverableTools,
                         List<String> earlierTurns, int earlierNotShown) {
        this.earlierTurns = List.copyOf(earlierTurns);
        this.earlierNotShown = earlierNotShown;
        this.page = page;
        this.stateSummary = stateSummary;
        this.editable = editable;
        this.coreTools = List.copyOf(coreTools);
        this.discoverableTools = discoverableTools;
    }

    /**
     * @param stateSummary      the compact rendering of the current state (see {@link ConfigSummary})
     * @param coreTools         the names of the tools sent with every request of this context
     * @param discoverableTools how many more tools {@code search_tools} can find
     */
    public static SystemPrompt of(String page, String stateSummary, EditableStatus editable, List<String> coreTools,
                                  int discoverableTools) {
        return new SystemPrompt(page, stateSummary, editable == null ? EditableStatus.empty() : editable, coreTools,
                discoverableTools, List.of(), 0);
    }

    /**
     * The same prompt with the digest of the turns that are no longer sent whole, oldest first ({@code notShown}
     * older ones are only counted).
     */
    public SystemPrompt withEarlierTurns(List<String> digests, int notShown) {
        return new SystemPrompt(page, stateSummary, editable, coreTools, discoverableTools, digests, notShown);
    }

    public String render() {
        boolean tables = "tables".equals(page);
        StringBuilder out = new StringBuilder(4096);
        out.append(tables ? TABLES_ROLE : GENERIC_ROLE).append("\n\n");
        if (tables) {
            out.append(TABLES_PLAYBOOKS).append("\n\n");
        }
        out.append("## Tools\nAlways available: ").append(String.join(", ", coreTools)).append('.');
        if (discoverableTools > 0) {
            out.append(" ").append(discoverableTools)
                    .append(" more (e.g. joins, sorting, saved configs) are found with search_tools and become callable in your next step.");
        }
        out.append("\n\n## Current state (page: ").append(page).append(")\n").append(stateSummary == null || stateSummary.isBlank()
                ? "Nothing yet.\n" : stateSummary);
        if (!earlierTurns.isEmpty() || earlierNotShown > 0) {
            out.append("\n## Earlier in this conversation\n");
            if (earlierNotShown > 0) {
                out.append("(").append(earlierNotShown).append(" earlier turns are not listed.)\n");
            }
            earlierTurns.forEach(d -> out.append("- ").append(d).append('\n'));
        }
        if (!editable.isEmpty()) {
            out.append("\n## Editable fields\nChange these with update_editable_status(fieldName, value); values are text.\n")
                    .append(editable.render());
        }
        return out.toString();
    }
}
