package dev.tablewright.eval;

import dev.tablewright.fakes.sampledb.SampleDatabase;
import dev.tablewright.postgres.DatabaseUrl;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The second data source of the corpus: a database of its own holding the sample plus {@code sales.returns}, a table
 * the first data source does not have, so a task can only succeed on the data source the user picked. Deterministic,
 * like the sample: one return for every shipped order whose id is a multiple of 9.
 */
public final class StagingDatabase {

    /** The database created beside the sample (needs a role that may create databases). */
    public static final String NAME = "tablewright_eval_staging";

    static final String RETURNS = """
            CREATE TABLE IF NOT EXISTS sales.returns (
                id            integer PRIMARY KEY,
                order_id      bigint NOT NULL REFERENCES sales.orders (id),
                returned_on   date NOT NULL,
                reason        text NOT NULL,
                refund_amount numeric(12, 2) NOT NULL
            );
            INSERT INTO sales.returns (id, order_id, returned_on, reason, refund_amount)
            SELECT o.id / 9, o.id, (o.created_at AT TIME ZONE 'UTC')::date + 20,
                   (ARRAY['damaged', 'wrong item', 'not needed', 'late delivery'])[1 + (o.id / 9) % 4],
                   round(o.total_amount * (1 + (o.id / 9) % 4) / 4, 2)
            FROM sales.orders AS o
            WHERE o.status = 'shipped' AND o.id % 9 = 0
            ON CONFLICT (id) DO NOTHING;
            ANALYZE sales.returns;
            """;

    private StagingDatabase() {
    }

    /** The staging database on the server of {@code production}, created and filled when missing. */
    public static DatabaseUrl prepare(DatabaseUrl production) throws SQLException {
        DatabaseUrl staging = SampleDatabase.dedicated(production, NAME);
        if (staging.database().equals(production.database())) {
            throw new IllegalStateException("the second data source needs a database of its own, and the role of "
                    + production + " may not create one (CREATEDB): grant it, or leave out the tasks with a \"database\"");
        }
        try (Connection c = staging.connect(); Statement s = c.createStatement()) {
            s.execute(RETURNS);
        }
        return staging;
    }
}
