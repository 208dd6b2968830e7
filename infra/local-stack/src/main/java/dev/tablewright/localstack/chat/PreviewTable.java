package dev.tablewright.localstack.chat;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;

/** A table-config preview's sample rows as a small text table: visible columns, at most a few rows, cells cut short. */
final class PreviewTable {

    static final int MAX_ROWS = 8;
    static final int MAX_CELL = 24;

    private PreviewTable() {
    }

    static String render(JsonNode preview) {
        List<String> keys = new ArrayList<>();
        List<String> headers = new ArrayList<>();
        for (JsonNode c : preview.path("columns")) {
            if (!c.path("hidden").asBoolean(false)) {
                keys.add(c.path("key").asText());
                headers.add(c.path("header").asText(c.path("key").asText()));
            }
        }
        JsonNode rows = preview.path("rows");
        if (keys.isEmpty() && rows.size() > 0 && rows.get(0).isObject()) {
            rows.get(0).fieldNames().forEachRemaining(k -> {
                keys.add(k);
                headers.add(k);
            });
        }
        List<List<String>> cells = new ArrayList<>();
        for (int r = 0; r < Math.min(rows.size(), MAX_ROWS); r++) {
            JsonNode row = rows.get(r);
            List<String> line = new ArrayList<>();
            for (int i = 0; i < keys.size(); i++) {
                JsonNode v = row.isArray() ? row.path(i) : row.path(keys.get(i));
                line.add(cut(v.isMissingNode() || v.isNull() ? "" : v.isValueNode() ? v.asText() : v.toString()));
            }
            cells.add(line);
        }
        int[] width = new int[keys.size()];
        for (int i = 0; i < keys.size(); i++) {
            width[i] = cut(headers.get(i)).length();
            for (List<String> line : cells) {
                width[i] = Math.max(width[i], line.get(i).length());
            }
        }
        StringBuilder out = new StringBuilder();
        out.append(line(headers.stream().map(PreviewTable::cut).toList(), width));
        StringBuilder rule = new StringBuilder();
        for (int i = 0; i < width.length; i++) {
            rule.append(i == 0 ? "" : "-+-").append("-".repeat(width[i]));
        }
        out.append(rule).append('\n');
        cells.forEach(l -> out.append(line(l, width)));
        if (rows.size() > MAX_ROWS || preview.path("more").asBoolean(false)) {
            out.append("... (").append(rows.size() > MAX_ROWS ? rows.size() - MAX_ROWS + " more sample rows" : "more rows")
                    .append(")\n");
        }
        if (rows.isEmpty()) {
            out.append("(no rows)\n");
        }
        return out.toString();
    }

    private static String line(List<String> values, int[] width) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < values.size(); i++) {
            out.append(i == 0 ? "" : " | ").append(values.get(i)).append(" ".repeat(width[i] - values.get(i).length()));
        }
        return out.append('\n').toString();
    }

    private static String cut(String s) {
        String flat = s.replace('\n', ' ');
        return flat.length() <= MAX_CELL ? flat : flat.substring(0, MAX_CELL - 1) + "…";
    }
}
