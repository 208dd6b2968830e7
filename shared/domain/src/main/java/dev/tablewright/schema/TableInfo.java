package dev.tablewright.schema;

import java.util.List;
import java.util.Optional;

/** A table as introspected: its columns and its foreign keys, outgoing (this table references) and incoming. */
public record TableInfo(String schema, String name, String kind, List<ColumnInfo> columns,
                        List<ForeignKey> outgoing, List<ForeignKey> incoming) {
    public TableInfo {
        columns = List.copyOf(columns);
        outgoing = outgoing == null ? List.of() : List.copyOf(outgoing);
        incoming = incoming == null ? List.of() : List.copyOf(incoming);
    }

    public Optional<ColumnInfo> column(String columnName) {
        return columns.stream().filter(c -> c.name().equals(columnName)).findFirst();
    }

    public String qualifiedName() {
        return schema + "." + name;
    }
}
