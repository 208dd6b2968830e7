package dev.tablewright.mcp;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;

/** The diff of a stored preview ({@code ConfigDiffJson}'s shape) in one line, for the save confirmation. */
final class PreviewSummaries {

    private PreviewSummaries() {
    }

    static String changes(JsonNode summary) {
        if (summary == null) {
            return "";
        }
        JsonNode diff = summary.path("diff");
        List<String> parts = new ArrayList<>();
        for (String section : List.of("columns", "joins", "filters", "sorts")) {
            JsonNode s = diff.path(section);
            add(parts, section, "added", s.path("added"));
            add(parts, section, "removed", s.path("removed"));
            List<String> changed = new ArrayList<>();
            s.path("changed").forEach(c -> changed.add(c.path("key").asText()));
            if (!changed.isEmpty()) {
                parts.add(section + " changed: " + String.join(", ", changed));
            }
        }
        List<String> settings = new ArrayList<>();
        diff.path("settings").forEach(v -> settings.add(v.asText()));
        if (!settings.isEmpty()) {
            parts.add("settings: " + String.join(", ", settings));
        }
        return String.join("; ", parts);
    }

    private static void add(List<String> parts, String section, String what, JsonNode values) {
        List<String> names = new ArrayList<>();
        values.forEach(v -> names.add(v.asText()));
        if (!names.isEmpty()) {
            parts.add(section + " " + what + ": " + String.join(", ", names));
        }
    }
}
