package dev.tablewright.schema;

import dev.tablewright.validation.Identifiers;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * The real names closest to a name the model proposed, for "did you mean" errors.
 * Case-insensitive Levenshtein distance, bounded: names are cut to {@link #MAX_CHARS} characters and at most
 * {@link #MAX_CANDIDATES} candidates are compared, so a hostile 5 MB name or a 10,000-table schema costs little.
 */
public final class ClosestNames {

    static final int MAX_CHARS = 64;
    static final int MAX_CANDIDATES = 2000;

    private ClosestNames() {
    }

    /** Up to {@code limit} candidates, closest first; only those within a plausible distance (or sharing a prefix). */
    public static List<String> closest(String wanted, Collection<String> candidates, int limit) {
        if (wanted == null || candidates == null || candidates.isEmpty() || limit <= 0) {
            return List.of();
        }
        String w = cut(wanted).toLowerCase(Locale.ROOT);
        record Scored(String name, int distance) {
        }
        List<Scored> scored = new ArrayList<>();
        int seen = 0;
        for (String c : candidates) {
            if (c == null || seen++ >= MAX_CANDIDATES) {
                continue;
            }
            String cl = cut(c).toLowerCase(Locale.ROOT);
            int d = distance(w, cl);
            int allowed = Math.max(2, Math.max(w.length(), cl.length()) / 2);
            // by substring (either way, but a short name inside a long one is chance: "id" in "is_paid"), by
            // abbreviation ("totl" for "total_amount"), by a shared prefix, else by edit distance
            boolean related = (w.length() >= 3 && cl.contains(w)) || (cl.length() >= 4 && cl.length() * 2 >= w.length() && w.contains(cl));
            boolean abbreviation = w.length() >= 3 && cl.charAt(0) == w.charAt(0) && isSubsequence(w, cl);
            boolean prefix = commonPrefix(w, cl) >= Math.min(3, w.length());
            if (related || abbreviation) {
                scored.add(new Scored(c, Math.min(d, 1)));
            } else if (prefix) {
                scored.add(new Scored(c, Math.min(d, 2)));
            } else if (d <= allowed && d < w.length()) {
                scored.add(new Scored(c, d));
            }
        }
        scored.sort(Comparator.comparingInt(Scored::distance).thenComparing(Scored::name));
        List<String> out = new ArrayList<>(Math.min(limit, scored.size()));
        for (int i = 0; i < scored.size() && out.size() < limit; i++) {
            out.add(scored.get(i).name());
        }
        return out;
    }

    /** " Did you mean a, b?" or, with no close name, " Known: x, y, …" listing a few; empty if there are none. */
    public static String hint(String wanted, Collection<String> candidates) {
        List<String> close = closest(wanted, candidates, 3);
        if (!close.isEmpty()) {
            return " Did you mean " + String.join(", ", close) + "?";
        }
        if (candidates == null || candidates.isEmpty()) {
            return "";
        }
        List<String> some = new ArrayList<>();
        for (String c : candidates) {
            if (some.size() == 8) {
                some.add("…");
                break;
            }
            some.add(c);
        }
        return " Known: " + String.join(", ", some) + ".";
    }

    private static boolean isSubsequence(String small, String big) {
        int i = 0;
        for (int j = 0; j < big.length() && i < small.length(); j++) {
            if (small.charAt(i) == big.charAt(j)) {
                i++;
            }
        }
        return i == small.length();
    }

    private static int commonPrefix(String a, String b) {
        int n = 0;
        while (n < a.length() && n < b.length() && a.charAt(n) == b.charAt(n)) {
            n++;
        }
        return n;
    }

    /** Why {@code schema} is not there, with the closest visible schemas. */
    public static String missingSchema(String schema, Collection<String> schemas) {
        return "schema " + Identifiers.quote(schema) + " does not exist or is not visible." + hint(schema, schemas);
    }

    /** Why {@code column} is not a column of {@code table}, with its closest columns. */
    public static String missingColumn(TableInfo table, String column) {
        List<String> names = table.columns().stream().map(ColumnInfo::name).toList();
        return "column " + Identifiers.quote(column) + " does not exist in " + table.qualifiedName() + "." + hint(column, names);
    }

    /**
     * Why {@code schema.table} is not there, schema first: the same table in another schema is named as such (not
     * the closest table of the wrong schema); else the closest tables of that schema.
     */
    public static String missingTable(SchemaCatalog catalog, String schema, String table) {
        String where = "table '" + schema + "." + table + "' does not exist.";
        for (String other : catalog.schemas()) {
            if (!other.equals(schema) && catalog.table(other, table).isPresent()) {
                return where + " It is in schema '" + other + "': " + other + "." + table + ".";
            }
        }
        List<String> names = new ArrayList<>();
        catalog.tables(schema).forEach(t -> names.add(t.name()));
        return where + hint(table, names);
    }

    static int distance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }

    private static String cut(String s) {
        return s.length() > MAX_CHARS ? s.substring(0, MAX_CHARS) : s;
    }
}
