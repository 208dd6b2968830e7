package dev.tablewright.toolcontract;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * A set of tools, each listed once, and what the chat turn asks of it: the core tools of a page, the catalogue
 * search, the tools that run as functions of their own. A registry refuses a definition a door that offers it could
 * not show (no title on MCP, say). The catalogue's registry is built where a function is wired
 * ({@code dev.tablewright.catalogue.ToolCatalogue}).
 */
public final class ToolRegistry {

    private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9_]{0,63}");
    private static final Pattern WORD_SPLIT = Pattern.compile("[^a-z0-9]+");
    /** Words too common in tool descriptions to tell tools apart. */
    private static final Set<String> STOP_WORDS = Set.of("a", "an", "the", "and", "or", "of", "to", "in", "on", "for",
            "with", "by", "is", "it", "its", "be", "as", "at", "from", "this", "that", "one", "i", "me", "my", "we",
            "you", "your", "can", "do", "does", "how", "what", "which", "want", "need", "tool", "please", "show");


    private final List<ToolDefinition> tools;
    private final Map<String, ToolDefinition> byName;
    private final Map<String, Terms> terms;
    private final Map<String, ObjectNode> chatParameters;

    public ToolRegistry(Collection<ToolDefinition> definitions) {
        Map<String, ToolDefinition> names = new LinkedHashMap<>();
        Map<String, Terms> index = new LinkedHashMap<>();
        Map<String, ObjectNode> chat = new LinkedHashMap<>();
        for (ToolDefinition d : definitions) {
            if (d == null) {
                throw new IllegalStateException("a tool definition is null");
            }
            if (!NAME.matcher(d.name()).matches()) {
                throw new IllegalStateException("tool name '" + d.name() + "' is not snake_case (a-z, 0-9, _; at most 64 characters)");
            }
            if (names.putIfAbsent(d.name(), d) != null) {
                throw new IllegalStateException("tool '" + d.name() + "' is listed twice");
            }
            if (d.description() == null || d.description().isBlank()) {
                throw new IllegalStateException("tool '" + d.name() + "' has no description");
            }
            if (!d.missingForItsDoors().isEmpty()) {
                throw new IllegalStateException(String.join("; ", d.missingForItsDoors()));
            }
            index.put(d.name(), Terms.of(d));
            chat.put(d.name(), d.chatParameters());
        }
        this.tools = List.copyOf(names.values());
        this.byName = Map.copyOf(names);
        this.terms = Map.copyOf(index);
        this.chatParameters = Map.copyOf(chat);
    }

    public List<ToolDefinition> all() {
        return tools;
    }

    public Optional<ToolDefinition> find(String name) {
        return Optional.ofNullable(name == null ? null : byName.get(name));
    }

    public ToolDefinition get(String name) {
        return find(name).orElseThrow(() -> new IllegalArgumentException("no tool named '" + name + "'"));
    }

    /**
     * The JSON Schema of a tool's arguments as the chat's model is sent it ({@link ToolDefinition#chatParameters}),
     * derived once per tool when the registry is built; a definition this registry does not hold is derived anew.
     */
    public ObjectNode chatParameters(ToolDefinition tool) {
        ObjectNode derived = byName.get(tool.name()) == tool ? chatParameters.get(tool.name()) : null;
        return derived != null ? derived : tool.chatParameters();
    }

    /** The tools sent to the model on every turn in this page context (e.g. {@code tables}), in registry order. */
    public List<ToolDefinition> coreTools(String context) {
        return tools.stream().filter(t -> t.isCoreIn(context)).toList();
    }

    /** Every context that holds at least one core tool, sorted. */
    public Set<String> contexts() {
        Set<String> out = new TreeSet<>();
        tools.forEach(t -> out.addAll(t.coreIn()));
        return out;
    }

    /** The tools one door offers, in registry order: all a door's tool list, its search and its dispatch may see. */
    public ToolRegistry offeredOn(ToolDefinition.Audience door) {
        return new ToolRegistry(tools.stream().filter(t -> t.isOn(door)).toList());
    }

    /** The tools that run as a Lambda function of their own (one template.yaml function each). */
    public List<ToolDefinition> functionTools() {
        return tools.stream().filter(t -> t.runsOn() == ToolDefinition.RunsOn.FUNCTION).toList();
    }

    /** A catalogue search result: the tool and how well it matched. */
    public record Match(ToolDefinition tool, int score) {
    }

    /**
     * The catalogue search for discoverable tools: keyword scoring over names, descriptions and argument
     * names (a name hit counts most). Words match on a shared prefix of four letters or more, so "sorting"
     * finds {@code apply_sort_change} and "joins" finds {@code apply_join_change}. Best first; ties in
     * registry order; tools that match nothing are left out.
     *
     * @param exclude names not to return (typically the core tools already sent)
     */
    public List<Match> search(String query, Set<String> exclude, int limit) {
        Set<String> words = words(query == null ? "" : query);
        if (words.isEmpty() || limit <= 0) {
            return List.of();
        }
        List<Match> matches = new ArrayList<>();
        for (ToolDefinition tool : tools) {
            if (exclude != null && exclude.contains(tool.name())) {
                continue;
            }
            int score = terms.get(tool.name()).score(words, normalisedName(query));
            if (score > 0) {
                matches.add(new Match(tool, score));
            }
        }
        matches.sort(Comparator.comparingInt(Match::score).reversed()); // stable: ties keep registry order
        return matches.size() > limit ? List.copyOf(matches.subList(0, limit)) : List.copyOf(matches);
    }

    public List<Match> search(String query, int limit) {
        return search(query, Set.of(), limit);
    }

    private static String normalisedName(String query) {
        return query == null ? "" : query.strip().toLowerCase(Locale.ROOT).replace(' ', '_');
    }

    static Set<String> words(String text) {
        Set<String> out = new LinkedHashSet<>();
        for (String w : WORD_SPLIT.split(text.toLowerCase(Locale.ROOT))) {
            if (!w.isEmpty() && !STOP_WORDS.contains(w)) {
                out.add(w);
            }
        }
        return out;
    }

    /** A tool's searchable words, computed once at class init. */
    private record Terms(String name, Set<String> nameWords, Set<String> descriptionWords, Set<String> argumentWords) {

        static Terms of(ToolDefinition d) {
            Set<String> arguments = new HashSet<>();
            JsonNode properties = d.parameters() == null ? null : d.parameters().get("properties");
            if (properties != null) {
                properties.fieldNames().forEachRemaining(n -> arguments.addAll(words(n)));
            }
            return new Terms(d.name(), words(d.name()), words(d.description()), arguments);
        }

        int score(Set<String> query, String wholeQuery) {
            int score = name.equals(wholeQuery) ? 10 : 0;
            for (String q : query) {
                if (matchesAny(q, nameWords)) {
                    score += 3;
                }
                if (matchesAny(q, descriptionWords)) {
                    score += 1;
                }
                if (matchesAny(q, argumentWords)) {
                    score += 1;
                }
            }
            return score;
        }

        private static boolean matchesAny(String q, Set<String> words) {
            if (words.contains(q)) {
                return true;
            }
            if (q.length() < 4) {
                return false;
            }
            for (String w : words) {
                if (w.length() >= 4 && (w.startsWith(q) || q.startsWith(w))) {
                    return true;
                }
            }
            return false;
        }
    }

    @Override
    public String toString() {
        return "ToolRegistry" + Arrays.toString(tools.stream().map(ToolDefinition::name).toArray());
    }
}
