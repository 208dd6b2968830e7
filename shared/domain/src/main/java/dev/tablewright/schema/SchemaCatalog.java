package dev.tablewright.schema;

import java.util.List;
import java.util.Optional;

/**
 * Live introspection of the database users build tables over. The JDBC adapter reads PostgreSQL's catalogue; tools that receive no catalogue
 * run ungrounded and say so in a warning.
 */
public interface SchemaCatalog {

    /** The schemas visible to the assistant (the configured allow-list). */
    List<String> schemas();

    /** The tables of a schema, columns included. Empty if the schema is unknown or not allowed. */
    List<TableInfo> tables(String schema);

    /** One table, with columns and relationships in both directions. */
    Optional<TableInfo> table(String schema, String table);
}
