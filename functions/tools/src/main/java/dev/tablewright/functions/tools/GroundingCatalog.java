package dev.tablewright.functions.tools;

import dev.tablewright.lambda.Env;
import dev.tablewright.logging.StructuredLog;
import dev.tablewright.postgres.PostgresDatabases;
import dev.tablewright.schema.SchemaCatalog;

/**
 * The live schema the operation tools ground table and column names against: the one place a tool function
 * obtains it, built at init from the same configuration as the database tools ({@link PostgresDatabases#fromEnvironment()}:
 * {@code DATA_SOURCES}, else {@code DATABASE_SECRET_ARN}, else {@code DATABASE_URL}). As there, no connection is
 * opened at init: the catalogue connects on first use and keeps what it read for its TTL across warm invocations.
 *
 * <p>Only an explicitly configured database grounds (unlike the database tools, the operation tools do not fall
 * back to the local default URL): with none, the tools run ungrounded and say so in a warning. With several data
 * sources, the tools ground against the first configured one: the catalogue is fixed when the handler is built,
 * before any invocation names a {@code database}. A configuration that cannot be read leaves the tools ungrounded
 * (logged at init); a database that cannot be reached during an invocation is reported by the tool as a
 * field error ("the schema catalogue is unavailable"), never as a failure of the function.
 */
final class GroundingCatalog {

    private static final StructuredLog LOG = StructuredLog.of(GroundingCatalog.class);

    private GroundingCatalog() {
    }

    static SchemaCatalog configured() {
        if (Env.get("DATA_SOURCES") == null && Env.get("DATABASE_SECRET_ARN") == null && Env.get("DATABASE_URL") == null) {
            return null;
        }
        try {
            PostgresDatabases databases = PostgresDatabases.fromEnvironment();
            return databases.find(databases.names().getFirst()).orElseThrow().catalog();
        } catch (RuntimeException e) {
            LOG.warn("database configuration unreadable: the operation tools run ungrounded", "reason", e.getMessage());
            return null;
        }
    }
}
