package dev.tablewright.sql;

import dev.tablewright.schema.SchemaCatalog;

/** One named data source users build tables over: its catalogue and its preview runner. */
public record Database(String name, SchemaCatalog catalog, SampleRunner runner) {
}
