package dev.tablewright.functions.tools;

import dev.tablewright.schema.SchemaCatalog;

/**
 * The live schema the operation tools ground table and column names against: the one place a tool function
 * obtains it. This jar ships no JDBC driver (it stays small for cold starts), so there is none yet and the
 * tools run ungrounded, saying so in a warning; the chat turn grounds through the database tools. When a
 * catalogue is configured for the tool functions (DATABASE_URL or a secret), build it here, at init.
 */
final class GroundingCatalog {

    private GroundingCatalog() {
    }

    static SchemaCatalog configured() {
        return null;
    }
}
