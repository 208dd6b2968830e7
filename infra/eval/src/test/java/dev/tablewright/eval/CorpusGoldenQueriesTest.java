package dev.tablewright.eval;

import dev.tablewright.fakes.sampledb.SampleDatabase;
import dev.tablewright.postgres.DatabaseUrl;
import dev.tablewright.postgres.PostgresDatabases;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The bundled corpus holds: at least 40 tasks covering what users ask (its tags say what each covers), and every golden
 * query runs on the sample database (the staging tasks on the second data source), returns rows, exactly as many as
 * the task states, with its order key and headers inside its columns.
 */
class CorpusGoldenQueriesTest {

    @Test
    void theCorpusCoversWhatUsersAsk() throws Exception {
        List<EvalTask> corpus = TaskFile.corpus();
        assertTrue(corpus.size() >= 40, corpus.size() + " tasks");
        Set<String> tags = new TreeSet<>();
        corpus.forEach(t -> tags.addAll(t.tags()));
        Set<String> wanted = Set.of("columns", "join", "two-hops", "join-key", "multi-column-key", "filter", "date", "timestamp",
                "timestamptz", "enum", "null", "boolean", "text", "number", "hidden-column", "sort", "rename", "remove",
                "multi-turn", "second-data-source", "ambiguous", "refuse", "write", EvalTask.DEMO,
                // every filter operator
                "eq", "neq", "gt", "gte", "lt", "lte", "between", "in", "not_in", "contains", "starts_with", "ends_with",
                "is_null", "is_not_null");
        Set<String> missing = new TreeSet<>(wanted);
        missing.removeAll(tags);
        assertEquals(Set.of(), missing, "tags no task of the corpus carries");
        assertTrue(corpus.stream().anyMatch(t -> t.turns().size() >= 3), "a conversation of three turns");
        assertTrue(corpus.stream().filter(t -> t.expect() instanceof EvalTask.Refusal).count() >= 4, "requests to refuse");
        assertTrue(corpus.stream().anyMatch(t -> t.tagged(EvalTask.DEMO) && t.database() != null), "the smoke run covers the second data source");
    }

    @Test
    void everyGoldenQueryRunsAndReturnsTheRowsItsTaskStates() throws Exception {
        DatabaseUrl sample = SampleDatabase.ensureLoaded();
        List<String> problems = new ArrayList<>();
        try (GradingDatabase production = new GradingDatabase("production", sample, PostgresDatabases.DEFAULT_SCHEMAS);
             GradingDatabase staging = new GradingDatabase("staging", StagingDatabase.prepare(sample), PostgresDatabases.DEFAULT_SCHEMAS)) {
            int checked = 0;
            for (EvalTask task : TaskFile.corpus()) {
                if (!(task.expect() instanceof EvalTask.ResultSet expected)) {
                    continue;
                }
                GradingDatabase db = "staging".equals(task.database()) ? staging : production;
                ResultTable golden;
                try {
                    golden = db.golden(expected.sql());
                } catch (java.sql.SQLException e) {
                    problems.add(task.id() + ": the golden query fails: " + e.getMessage());
                    continue;
                }
                checked++;
                if (expected.rows() == null) {
                    problems.add(task.id() + ": states no row count");
                } else if (golden.rows().isEmpty() || golden.rows().size() != expected.rows()) {
                    problems.add(task.id() + ": " + golden.rows().size() + " rows, the task says " + expected.rows());
                }
                int columns = golden.columns().size();
                expected.orderKey().stream().filter(k -> k > columns).forEach(k -> problems.add(task.id() + ": orderKey " + k + " > " + columns + " columns"));
                expected.headers().keySet().stream().filter(k -> k > columns).forEach(k -> problems.add(task.id() + ": header " + k + " > " + columns + " columns"));
            }
            assertTrue(checked >= 40, checked + " golden queries");
        }
        assertEquals(List.of(), problems, String.join("\n", problems));
    }

    @Test
    void theStagingTablesAreOnlyOnTheSecondDataSource() throws Exception {
        DatabaseUrl sample = SampleDatabase.ensureLoaded();
        try (GradingDatabase production = new GradingDatabase("production", sample, PostgresDatabases.DEFAULT_SCHEMAS)) {
            java.sql.SQLException e = org.junit.jupiter.api.Assertions.assertThrows(java.sql.SQLException.class,
                    () -> production.golden("SELECT reason FROM sales.returns"));
            assertTrue(e.getMessage().contains("sales.returns"), e.getMessage());
        }
    }
}
