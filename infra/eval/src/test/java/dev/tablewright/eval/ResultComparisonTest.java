package dev.tablewright.eval;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** What the grader says when a table's rows are not the golden query's: each way they can differ, in words. */
class ResultComparisonTest {

    static ResultTable table(List<String> columns, String[]... rows) {
        return new ResultTable(columns, Arrays.stream(rows).map(Arrays::asList).toList());
    }

    private static final List<String> AB = List.of("a", "b");

    @Test
    void theSameRowsInAnyOrderMatchAsAMultiset() {
        ResultTable golden = table(AB, new String[]{"1", "x"}, new String[]{"2", null}, new String[]{"1", "x"});
        ResultTable shuffled = table(List.of("key", "label"), new String[]{"2", null}, new String[]{"1", "x"}, new String[]{"1", "x"});
        assertNull(ResultComparison.difference(golden, shuffled, false, List.of()));
    }

    @Test
    void aRowCountedOnceTooFewIsMissing() {
        ResultTable golden = table(AB, new String[]{"1", "x"}, new String[]{"1", "x"});
        ResultTable once = table(AB, new String[]{"1", "x"});
        assertEquals("rows differ: the table has 1 row, the golden query 2; 1 missing, 0 extra; missing e.g. [1, x]",
                ResultComparison.difference(golden, once, false, List.of()));
    }

    @Test
    void missingAndExtraRowsAreCountedWithExamples() {
        ResultTable golden = table(AB, new String[]{"1", "garden"}, new String[]{"2", "garden"}, new String[]{"3", "garden"});
        ResultTable actual = table(AB, new String[]{"1", "garden"}, new String[]{"4", "tools"});
        assertEquals("rows differ: the table has 2 rows, the golden query 3; 2 missing, 1 extra; missing e.g. [2, garden], "
                + "[3, garden]; extra e.g. [4, tools]", ResultComparison.difference(golden, actual, false, List.of()));
    }

    @Test
    void anotherColumnCountIsSaidFirst() {
        ResultTable golden = table(AB, new String[]{"1", "x"});
        ResultTable actual = table(List.of("a", "b", "c"), new String[]{"1", "x", "y"});
        assertEquals("column count: the table shows 3 columns (a, b, c), the golden query 2 (a, b)",
                ResultComparison.difference(golden, actual, false, List.of()));
    }

    @Test
    void theRightRowsWithTheColumnsSwappedAreSaidSo() {
        ResultTable golden = table(AB, new String[]{"1", "x"}, new String[]{"2", "y"});
        ResultTable swapped = table(List.of("b", "a"), new String[]{"x", "1"}, new String[]{"y", "2"});
        assertEquals("columns in another order: the table has the golden query's rows with its columns as (b, a); the golden "
                + "query's order is (a, b), which is the table's (a, b)", ResultComparison.difference(golden, swapped, false, List.of()));
    }

    @Test
    void orderedRowsMustComeInOrderOnTheirKey() {
        ResultTable golden = table(AB, new String[]{"a", "3"}, new String[]{"b", "3"}, new String[]{"c", "1"});
        ResultTable tiesSwapped = table(AB, new String[]{"b", "3"}, new String[]{"a", "3"}, new String[]{"c", "1"});
        assertNull(ResultComparison.difference(golden, tiesSwapped, true, List.of(2)), "rows tied on the key may come in any order");
        assertEquals("order: the rows match but not their order: row 1 is [b, 3], the golden query's [a, 3]",
                ResultComparison.difference(golden, tiesSwapped, true, List.of()));
        ResultTable reversed = table(AB, new String[]{"c", "1"}, new String[]{"a", "3"}, new String[]{"b", "3"});
        assertEquals("order: the rows match but not their order on columns [2]: row 1 is [1], the golden query's [3]",
                ResultComparison.difference(golden, reversed, true, List.of(2)));
        assertNull(ResultComparison.difference(golden, reversed, false, List.of()), "unordered: the same multiset");
    }

    @Test
    void numbersCompareByValue() {
        assertEquals("12.5", ResultTable.number(new java.math.BigDecimal("12.50")));
        assertEquals("3", ResultTable.number(new java.math.BigDecimal("3.00")));
        assertEquals("3", ResultTable.number(3L));
        assertEquals("0", ResultTable.number(new java.math.BigDecimal("0.000")));
        assertEquals("1200", ResultTable.number(new java.math.BigDecimal("1.2E+3")));
    }
}
