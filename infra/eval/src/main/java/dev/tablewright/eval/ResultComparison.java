package dev.tablewright.eval;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The grader's comparison of a table's rows with the golden query's: equal as multisets of rows by column position,
 * and, when the task says so, in the same order. A difference comes back as one sentence saying what differs: the
 * column count, the rows missing and extra (with examples), the same rows with the columns in another order, or the
 * first row out of order.
 */
public final class ResultComparison {

    /** Examples of missing and extra rows a reason shows. */
    private static final int EXAMPLES = 2;
    /** Column permutations tried before a column-order diagnosis gives up (the check is a diagnosis, not the verdict). */
    private static final int MAX_PERMUTATION_STEPS = 10_000;

    private ResultComparison() {
    }

    /**
     * Null when {@code actual} matches {@code expected}; else why not.
     *
     * @param orderKey with {@code ordered}: the 1-based positions the order is checked on; empty: whole rows
     */
    public static String difference(ResultTable expected, ResultTable actual, boolean ordered, List<Integer> orderKey) {
        int want = expected.columns().size();
        int got = actual.columns().size();
        if (want != got) {
            return "column count: the table shows " + got + " column" + (got == 1 ? "" : "s") + " (" + String.join(", ", actual.columns())
                    + "), the golden query " + want + " (" + String.join(", ", expected.columns()) + ")";
        }
        Map<List<String>, Integer> wantCounts = counts(expected.rows());
        Map<List<String>, Integer> gotCounts = counts(actual.rows());
        if (!wantCounts.equals(gotCounts)) {
            List<Integer> permutation = columnPermutation(expected, actual, wantCounts);
            if (permutation != null) {
                List<String> order = new ArrayList<>();
                permutation.forEach(p -> order.add(actual.columns().get(p)));
                return "columns in another order: the table has the golden query's rows with its columns as ("
                        + String.join(", ", actual.columns()) + "); the golden query's order is (" + String.join(", ", expected.columns())
                        + "), which is the table's (" + String.join(", ", order) + ")";
            }
            return rowsDiffer(expected, actual, wantCounts, gotCounts);
        }
        if (ordered) {
            for (int i = 0; i < expected.rows().size(); i++) {
                List<String> w = project(expected.rows().get(i), orderKey);
                List<String> g = project(actual.rows().get(i), orderKey);
                if (!w.equals(g)) {
                    return "order: the rows match but not their order" + (orderKey.isEmpty() ? "" : " on columns " + orderKey)
                            + ": row " + (i + 1) + " is " + ResultTable.show(g) + ", the golden query's " + ResultTable.show(w);
                }
            }
        }
        return null;
    }

    private static String rowsDiffer(ResultTable expected, ResultTable actual, Map<List<String>, Integer> wantCounts,
                                     Map<List<String>, Integer> gotCounts) {
        List<List<String>> missing = surplus(expected.rows(), wantCounts, gotCounts);
        List<List<String>> extra = surplus(actual.rows(), gotCounts, wantCounts);
        int missingCount = total(wantCounts, gotCounts);
        int extraCount = total(gotCounts, wantCounts);
        StringBuilder out = new StringBuilder("rows differ: the table has ").append(actual.rows().size())
                .append(" row").append(actual.rows().size() == 1 ? "" : "s").append(", the golden query ")
                .append(expected.rows().size()).append("; ").append(missingCount).append(" missing, ")
                .append(extraCount).append(" extra");
        if (!missing.isEmpty()) {
            out.append("; missing e.g. ").append(examples(missing));
        }
        if (!extra.isEmpty()) {
            out.append("; extra e.g. ").append(examples(extra));
        }
        return out.toString();
    }

    /** The rows of {@code rows} (in their order, each once) that {@code more} holds more often than {@code fewer}. */
    private static List<List<String>> surplus(List<List<String>> rows, Map<List<String>, Integer> more, Map<List<String>, Integer> fewer) {
        List<List<String>> out = new ArrayList<>();
        for (List<String> row : rows) {
            if (more.get(row) > fewer.getOrDefault(row, 0) && !out.contains(row)) {
                out.add(row);
                if (out.size() == EXAMPLES) {
                    break;
                }
            }
        }
        return out;
    }

    private static int total(Map<List<String>, Integer> more, Map<List<String>, Integer> fewer) {
        int n = 0;
        for (Map.Entry<List<String>, Integer> e : more.entrySet()) {
            n += Math.max(0, e.getValue() - fewer.getOrDefault(e.getKey(), 0));
        }
        return n;
    }

    private static String examples(List<List<String>> rows) {
        List<String> shown = new ArrayList<>();
        rows.forEach(r -> shown.add(ResultTable.show(r)));
        return String.join(", ", shown);
    }

    static Map<List<String>, Integer> counts(List<List<String>> rows) {
        Map<List<String>, Integer> out = new HashMap<>();
        rows.forEach(r -> out.merge(r, 1, Integer::sum));
        return out;
    }

    private static List<String> project(List<String> row, List<Integer> key) {
        if (key.isEmpty()) {
            return row;
        }
        List<String> out = new ArrayList<>(key.size());
        for (int k : key) {
            out.add(k - 1 < row.size() ? row.get(k - 1) : null);
        }
        return out;
    }

    /**
     * The actual column for each golden column (by position) under which the rows are equal, or null: tried only among
     * columns whose values match as multisets, so it is quick, and bounded.
     */
    private static List<Integer> columnPermutation(ResultTable expected, ResultTable actual, Map<List<String>, Integer> wantCounts) {
        int n = expected.columns().size();
        if (n < 2 || expected.rows().size() != actual.rows().size()) {
            return null;
        }
        List<List<Integer>> candidates = new ArrayList<>();
        for (int j = 0; j < n; j++) {
            Map<String, Integer> wanted = columnCounts(expected.rows(), j);
            List<Integer> fits = new ArrayList<>();
            for (int k = 0; k < n; k++) {
                if (wanted.equals(columnCounts(actual.rows(), k))) {
                    fits.add(k);
                }
            }
            if (fits.isEmpty()) {
                return null;
            }
            candidates.add(fits);
        }
        int[] steps = {0};
        List<Integer> chosen = new ArrayList<>();
        return search(candidates, chosen, new boolean[n], actual, wantCounts, steps) ? chosen : null;
    }

    private static boolean search(List<List<Integer>> candidates, List<Integer> chosen, boolean[] used, ResultTable actual,
                                  Map<List<String>, Integer> wantCounts, int[] steps) {
        if (++steps[0] > MAX_PERMUTATION_STEPS) {
            return false;
        }
        int j = chosen.size();
        if (j == candidates.size()) {
            boolean identity = true;
            for (int i = 0; i < chosen.size(); i++) {
                identity &= chosen.get(i) == i;
            }
            if (identity) {
                return false; // the rows as they are: already known to differ
            }
            List<List<String>> permuted = new ArrayList<>(actual.rows().size());
            for (List<String> row : actual.rows()) {
                List<String> p = new ArrayList<>(chosen.size());
                chosen.forEach(k -> p.add(row.get(k)));
                permuted.add(p);
            }
            return counts(permuted).equals(wantCounts);
        }
        for (int k : candidates.get(j)) {
            if (!used[k]) {
                used[k] = true;
                chosen.add(k);
                if (search(candidates, chosen, used, actual, wantCounts, steps)) {
                    return true;
                }
                chosen.removeLast();
                used[k] = false;
            }
        }
        return false;
    }

    private static Map<String, Integer> columnCounts(List<List<String>> rows, int column) {
        Map<String, Integer> out = new HashMap<>();
        for (List<String> row : rows) {
            out.merge(Objects.requireNonNullElse(row.get(column), "\u0000NULL"), 1, Integer::sum);
        }
        return out;
    }
}
