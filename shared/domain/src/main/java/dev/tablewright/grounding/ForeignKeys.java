package dev.tablewright.grounding;

import dev.tablewright.schema.ForeignKey;
import dev.tablewright.schema.TableInfo;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The foreign keys a join can follow, read from the catalogue's tables (both directions). */
public final class ForeignKeys {

    private ForeignKeys() {
    }

    /**
     * The column pairs (other table's column, joined table's column) of the foreign key between the two tables that
     * pairs {@code otherColumn} with {@code joinedColumn}, in either direction; empty if no key does. A key over
     * several columns gives all its pairs: the join follows the whole key.
     */
    public static Optional<List<GroundedConfig.KeyPair>> pairs(TableInfo other, String otherColumn, TableInfo joined,
                                                               String joinedColumn) {
        for (ForeignKey fk : other.outgoing()) {
            if (fk.toSchema().equals(joined.schema()) && fk.toTable().equals(joined.name())) {
                int i = fk.fromColumns().indexOf(otherColumn);
                if (i >= 0 && fk.toColumns().get(i).equals(joinedColumn)) {
                    return Optional.of(pairs(fk.fromColumns(), fk.toColumns()));
                }
            }
        }
        for (ForeignKey fk : other.incoming()) {
            if (fk.fromSchema().equals(joined.schema()) && fk.fromTable().equals(joined.name())) {
                int i = fk.toColumns().indexOf(otherColumn);
                if (i >= 0 && fk.fromColumns().get(i).equals(joinedColumn)) {
                    return Optional.of(pairs(fk.toColumns(), fk.fromColumns()));
                }
            }
        }
        return Optional.empty();
    }

    /** "no foreign key links a.x and b.y." with the keys there are between the two tables, or what each links to. */
    public static String noKeyBetween(TableInfo other, String otherColumn, TableInfo joined, String joinedColumn) {
        return "no foreign key links " + other.qualifiedName() + "." + otherColumn + " and " + joined.qualifiedName()
                + "." + joinedColumn + ". " + between(other, joined);
    }

    private static List<GroundedConfig.KeyPair> pairs(List<String> otherColumns, List<String> joinedColumns) {
        List<GroundedConfig.KeyPair> pairs = new ArrayList<>();
        for (int k = 0; k < otherColumns.size(); k++) {
            pairs.add(new GroundedConfig.KeyPair(otherColumns.get(k), joinedColumns.get(k)));
        }
        return pairs;
    }

    private static String between(TableInfo a, TableInfo b) {
        List<String> between = new ArrayList<>();
        for (ForeignKey fk : a.outgoing()) {
            if (fk.toSchema().equals(b.schema()) && fk.toTable().equals(b.name())) {
                between.add(a.name() + "." + String.join("+", fk.fromColumns()) + " -> " + b.name() + "." + String.join("+", fk.toColumns()));
            }
        }
        for (ForeignKey fk : a.incoming()) {
            if (fk.fromSchema().equals(b.schema()) && fk.fromTable().equals(b.name())) {
                between.add(b.name() + "." + String.join("+", fk.fromColumns()) + " -> " + a.name() + "." + String.join("+", fk.toColumns()));
            }
        }
        if (!between.isEmpty()) {
            return "Relationships between them: " + String.join("; ", between) + ".";
        }
        List<String> linked = new ArrayList<>();
        a.outgoing().forEach(fk -> linked.add(fk.toSchema() + "." + fk.toTable()));
        a.incoming().forEach(fk -> linked.add(fk.fromSchema() + "." + fk.fromTable()));
        return linked.isEmpty() ? a.qualifiedName() + " has no foreign keys."
                : a.qualifiedName() + " is linked to: " + String.join(", ", linked.stream().distinct().toList()) + ".";
    }
}
