package dev.tablewright.schema;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * The real names closest to a name the model proposed, for "did you mean" errors (seed 001's grounding).
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
            boolean related = cl.contains(w) || w.contains(cl);
            if (d <= allowed || related) {
                scored.add(new Scored(c, related ? Math.min(d, 1) : d));
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
