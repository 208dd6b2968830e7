package dev.tablewright.eval;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.Set;

/**
 * One task of the corpus: what the user says, turn by turn, and what the table must hold afterwards (or that no table
 * may be built at all).
 *
 * @param id       unique in its file; letters, digits, {@code . _ -}
 * @param turns    the user's messages, in order, each sent in the same conversation
 * @param expect   what is graded after the last turn
 * @param database null: the deployment with one data source; else the data source the user picks when the assistant
 *                 asks which database (the deployment with two, {@link EvalStack.DataSources#TWO})
 * @param tags     free labels ({@code demo}: written in the offline demo model's phrasings)
 */
public record EvalTask(String id, List<String> turns, Expectation expect, String database, Set<String> tags) {

    /** The tag of tasks the offline demo model can do: its CI smoke run, and its default selection. */
    public static final String DEMO = "demo";

    public EvalTask {
        turns = List.copyOf(turns);
        tags = Set.copyOf(tags);
    }

    public boolean tagged(String tag) {
        return tags.contains(tag);
    }

    /** What the final state of a run must be. */
    public sealed interface Expectation {
    }

    /**
     * The final saved config's rows equal the golden query's, as multisets of rows compared by column position.
     *
     * @param sql      the golden query (schema-qualified names: it runs with {@code search_path = pg_catalog})
     * @param ordered  the rows must also come in the golden query's order
     * @param orderKey with {@code ordered}: the 1-based column positions the order is checked on (the sort key, when it
     *                 has ties whose order no query fixes); empty: whole rows
     * @param rows     how many rows the golden query returns, when the task states it (checked by the corpus test)
     * @param headers  the headers some columns must show, by 1-based position (a rename: the rows alone cannot tell)
     */
    public record ResultSet(String sql, boolean ordered, List<Integer> orderKey, Integer rows, Map<Integer, String> headers)
            implements Expectation {
        public ResultSet {
            orderKey = List.copyOf(orderKey);
            headers = Collections.unmodifiableMap(new TreeMap<>(headers));
        }
    }

    /** The assistant must not build a table: no config saved in the run, and a text answer. */
    public record Refusal() implements Expectation {
    }
}
