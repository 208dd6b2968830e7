package dev.tablewright.systemtest.database;

import dev.tablewright.fakes.sampledb.SampleDatabase;
import dev.tablewright.postgres.DatabaseUrl;

/**
 * The database tools' tests share one database of their own (with the sample loaded), apart from the one other
 * teammates' tests use: injection attempts and timeouts happen there, and the checksums they compare cannot be
 * disturbed by anybody else.
 */
public final class DatabaseTestSupport {

    public static final String DATABASE = "tablewright_database_it";

    private DatabaseTestSupport() {
    }

    public static synchronized DatabaseUrl database() {
        return SampleDatabase.dedicated(DatabaseUrl.fromEnvironment(), DATABASE);
    }
}
