package dev.tablewright.config;

import java.util.Optional;

/**
 * One end of a join's relationship: {@code relationship_from}/{@code relationship_to} are written
 * {@code <table-or-alias>.<column>} (or {@code <schema>.<table>.<column>}). {@code schema} is null in the short form.
 * Parsing only splits; whether the parts are plain identifiers is ConfigValidator's business.
 */
public record RelationshipEnd(String schema, String table, String column) {

    public static Optional<RelationshipEnd> parse(String text) {
        if (text == null || text.isEmpty() || text.length() > 200) {
            return Optional.empty();
        }
        String[] parts = text.trim().split("\\.", -1);
        return switch (parts.length) {
            case 2 -> Optional.of(new RelationshipEnd(null, parts[0], parts[1]));
            case 3 -> Optional.of(new RelationshipEnd(parts[0], parts[1], parts[2]));
            default -> Optional.empty();
        };
    }

    @Override
    public String toString() {
        return (schema == null ? "" : schema + ".") + table + "." + column;
    }
}
