package dev.tablewright.eval;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The task format: what a line may say, and every problem of a file named at once, with its line and field. */
class TaskFileTest {

    @Test
    void aTaskReadsWithItsTurnsExpectationDatabaseAndTags() throws Exception {
        List<EvalTask> tasks = TaskFile.parse("""
                {"id": "a", "turns": ["Show x", "Only y"], "expect": {"sql": "SELECT 1", "ordered": true, "orderKey": [1], "rows": 1, "headers": {"1": "One"}}, "tags": ["demo"]}

                {"id": "b", "turns": ["Delete it"], "expect": {"refuse": true}, "database": "staging"}
                """, "test");
        assertEquals(2, tasks.size());
        EvalTask a = tasks.get(0);
        assertEquals(List.of("Show x", "Only y"), a.turns());
        EvalTask.ResultSet expect = assertInstanceOf(EvalTask.ResultSet.class, a.expect());
        assertEquals(new EvalTask.ResultSet("SELECT 1", true, List.of(1), 1, Map.of(1, "One")), expect);
        assertEquals(true, a.tagged(EvalTask.DEMO));
        assertInstanceOf(EvalTask.Refusal.class, tasks.get(1).expect());
        assertEquals("staging", tasks.get(1).database());
    }

    @Test
    void everyProblemIsNamedWithItsLineAndField() {
        TaskFile.Invalid invalid = assertThrows(TaskFile.Invalid.class, () -> TaskFile.parse("""
                {"id": "ok", "turns": ["x"], "expect": {"sql": "SELECT 1"}}
                {"id": "ok", "turns": ["x"], "expect": {"sql": "SELECT 1"}}
                {"id": "bad id!", "turns": [], "expect": {"sql": 7, "colour": "red"}}
                {"id": "r", "turns": ["x"], "expect": {"refuse": true, "sql": "SELECT 1"}, "database": "elsewhere"}
                not json
                {"id": "k", "turns": ["x"], "expect": {"sql": "SELECT 1", "orderKey": [0]}}
                """, "tasks.jsonl"));
        assertEquals(List.of(
                "line 2: id: task 'ok' appears twice",
                "line 3: id: 1-64 letters, digits or . _ - (starting with a letter or digit)",
                "line 3: turns: at least one user message",
                "line 3: expect.colour: unknown field 'colour'",
                "line 3: expect.sql: expected a string, got a number",
                "line 3: expect.sql: required (or \"refuse\": true)",
                "line 4: database: one of [production, staging] (the data sources of the deployment with two)",
                "line 4: expect.refuse: a refusal has no sql, ordered, orderKey, rows or headers",
                "line 5: not JSON: Unrecognized token 'not': was expecting (JSON String, Number, Array, Object or token 'null', 'true' or 'false')",
                "line 6: expect.orderKey: only with \"ordered\": true",
                "line 6: expect.orderKey[0]: a column position, 1 or more"), invalid.problems());
    }
}
