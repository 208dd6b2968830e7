package dev.tablewright.postgres;

import java.util.Map;
import dev.tablewright.logging.StructuredLog;
import dev.tablewright.schema.SchemaCatalog;

import java.util.Optional;

/**
 * The live schemas names are grounded against outside the database tools (the operation tools, the config routes):
 * one per configured data source, from the same configuration as the database tools ({@code DATA_SOURCES}, else
 * {@code DATABASE_SECRET_ARN}, else {@code DATABASE_URL}). Built at init without connecting: a catalogue connects on
 * first use and keeps what it read for its TTL.
 *
 * <p>Only an explicitly configured database grounds (no fallback to the local default URL): with none, there is no
 * catalogue and callers run ungrounded, saying so. A configuration that cannot be read also leaves them ungrounded
 * (logged at init).
 */
public final class GroundingCatalogs implements dev.tablewright.schema.SchemaCatalogs {

    private static final StructuredLog LOG = StructuredLog.of(GroundingCatalogs.class);
    /** No database configured: nothing grounds. */
    public static final GroundingCatalogs NONE = new GroundingCatalogs(null);

    private final PostgresDatabases databases;

    private GroundingCatalogs(PostgresDatabases databases) {
        this.databases = databases;
    }

    /** Grounding against the databases a function's environment configures; {@link #NONE} when it configures none. */
    public static GroundingCatalogs configured(Map<String, String> env) {
        if (env.get("DATA_SOURCES") == null && env.get("DATABASE_SECRET_ARN") == null && env.get("DATABASE_URL") == null) {
            return NONE;
        }
        try {
            return new GroundingCatalogs(PostgresDatabases.fromEnvironment(env));
        } catch (RuntimeException e) {
            LOG.warn("database configuration unreadable: names are not grounded", "reason", e.getMessage());
            return NONE;
        }
    }

    /**
     * The catalogue of the data source chosen for the conversation ({@code dataSource}, the saved {@code database}
     * value), else of the first configured one; null when nothing grounds. A name that is not configured gets the
     * first one's too: the tool's own checks then report what does not exist there.
     */
    @Override
    public SchemaCatalog forDataSource(String dataSource) {
        if (databases == null) {
            return null;
        }
        Optional<dev.tablewright.sql.Database> chosen = dataSource == null ? Optional.empty() : databases.find(dataSource);
        return chosen.or(() -> databases.find(databases.names().getFirst())).map(dev.tablewright.sql.Database::catalog).orElse(null);
    }
}
