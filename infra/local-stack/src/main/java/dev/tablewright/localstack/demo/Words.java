package dev.tablewright.localstack.demo;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A phrase or a database name as comparable words: lower case, split on spaces, underscores and dots, filler words
 * dropped, each made singular. "their warehouse names" and {@code warehouses.name} both read [warehouse, name].
 */
record Words(List<String> list) {

    private static final Set<String> FILLER = Set.of("the", "a", "an", "their", "its", "his", "her", "column", "columns",
            "of", "each", "every", "all", "my", "field");

    Words {
        list = List.copyOf(list);
    }

    static Words of(String text) {
        List<String> out = new ArrayList<>();
        for (String w : text.toLowerCase(Locale.ROOT).split("[\\s_.\"'`]+")) {
            if (!w.isEmpty() && !FILLER.contains(w)) {
                out.add(singular(w));
            }
        }
        return new Words(out);
    }

    boolean isEmpty() {
        return list.isEmpty();
    }

    boolean startsWith(Words prefix) {
        return !prefix.isEmpty() && list.size() >= prefix.list.size() && list.subList(0, prefix.list.size()).equals(prefix.list);
    }

    /** What follows {@code prefix}. */
    Words after(Words prefix) {
        return new Words(list.subList(prefix.list.size(), list.size()));
    }

    /**
     * The words as a database name: [last, counted, at] → last_counted_at. Singular, so as a schema search's name
     * fragment "stock levels" finds stock_levels.
     */
    String asName() {
        return String.join("_", list);
    }

    @Override
    public String toString() {
        return String.join(" ", list);
    }

    static String singular(String w) {
        if (w.length() > 4 && w.endsWith("ies")) {
            return w.substring(0, w.length() - 3) + "y";
        }
        if (w.length() > 4 && (w.endsWith("sses") || w.endsWith("xes") || w.endsWith("ches") || w.endsWith("shes"))) {
            return w.substring(0, w.length() - 2);
        }
        if (w.length() > 3 && w.endsWith("s") && !w.endsWith("ss") && !w.endsWith("us") && !w.endsWith("is")) {
            return w.substring(0, w.length() - 1);
        }
        return w;
    }
}
