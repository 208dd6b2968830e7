package dev.tablewright.functions.chat.tools;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.json.Json;
import dev.tablewright.tool.ToolDefinition;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The tools of a context that are not sent on every turn, searchable by what they do (seed 000's discoverable
 * tools). Scoring is word overlap over the name and description, names weighted double: small, deterministic,
 * and good enough for a catalogue of a few dozen tools.
 */
public final class ToolCatalogue {

    private final List<ToolDefinition> discoverable;

    public ToolCatalogue(List<ToolDefinition> discoverable) {
        this.discoverable = List.copyOf(discoverable);
    }

    public List<ToolDefinition> discoverable() {
        return discoverable;
    }

    public List<ToolDefinition> search(String query, int limit) {
        Set<String> words = words(query);
        record Scored(ToolDefinition tool, int score) {
        }
        List<Scored> scored = new ArrayList<>();
        for (ToolDefinition t : discoverable) {
            Set<String> name = words(t.name().replace('_', ' '));
            Set<String> description = words(t.description());
            int score = 0;
            for (String w : words) {
                score += (name.contains(w) ? 2 : 0) + (description.contains(w) ? 1 : 0);
            }
            if (score > 0) {
                scored.add(new Scored(t, score));
            }
        }
        scored.sort(Comparator.comparingInt(Scored::score).reversed());
        return scored.stream().limit(Math.max(1, limit)).map(Scored::tool).toList();
    }

    /** What {@code search_tools} answers: the tools found, which are callable from the next step. */
    public static ObjectNode answer(List<ToolDefinition> found) {
        ObjectNode out = Json.object();
        ArrayNode tools = out.putArray("tools");
        for (ToolDefinition t : found) {
            tools.addObject().put("name", t.name()).put("description", t.description());
        }
        out.put("note", found.isEmpty() ? "No tool matched; try other words." : "These tools are callable from your next step.");
        return out;
    }

    private static final Set<String> STOP = Set.of("a", "an", "the", "to", "of", "and", "or", "in", "on", "for", "with", "by", "is", "it", "this", "that", "as", "be");

    static Set<String> words(String text) {
        Set<String> out = new HashSet<>();
        if (text == null) {
            return out;
        }
        for (String w : text.toLowerCase(Locale.ROOT).split("[^a-z0-9]+")) {
            if (w.length() > 1 && !STOP.contains(w)) {
                out.add(stem(w));
            }
        }
        return out;
    }

    private static String stem(String w) {
        if (w.endsWith("ing") && w.length() > 5) {
            return w.substring(0, w.length() - 3);
        }
        if (w.endsWith("s") && w.length() > 3) {
            return w.substring(0, w.length() - 1);
        }
        return w;
    }
}
