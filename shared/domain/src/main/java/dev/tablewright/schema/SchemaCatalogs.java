package dev.tablewright.schema;

/**
 * The live schema of each data source a tool may work on. A tool grounds names against the one chosen for the
 * conversation (its saved {@code database} value), or the first configured when none was chosen.
 */
@FunctionalInterface
public interface SchemaCatalogs {

    /** Nothing to ground against: tools run ungrounded and say so. */
    SchemaCatalogs NONE = name -> null;

    /** The catalogue for {@code dataSource} (null: the default one); null when nothing grounds. */
    SchemaCatalog forDataSource(String dataSource);

    /** The same catalogue whatever the data source (tests, one database). */
    static SchemaCatalogs of(SchemaCatalog catalog) {
        return name -> catalog;
    }
}
