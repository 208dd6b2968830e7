package dev.tablewright.fakes.sampledb;

import dev.tablewright.postgres.DatabaseUrl;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Against the real PostgreSQL of DATABASE_URL, in a database of its own so a forced reload disturbs nobody. */
class SampleDatabaseTest {

    private static DatabaseUrl url;

    @BeforeAll
    static void load() {
        url = SampleDatabase.dedicated(DatabaseUrl.fromEnvironment(), "tablewright_sampledb_it");
    }

    @Test
    void holdsAFewThousandRowsAcrossFourSchemas() throws SQLException {
        Map<String, Long> counts = counts();
        assertEquals(40, counts.get("core.users"));
        assertEquals(6, counts.get("core.warehouses"));
        assertEquals(200, counts.get("inventory.items"));
        assertEquals(1200, counts.get("inventory.stock_levels"));
        assertEquals(300, counts.get("sales.customers"));
        assertEquals(1500, counts.get("sales.orders"));
        assertEquals(4500, counts.get("sales.order_lines"));
        try (Connection c = url.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*) FILTER (WHERE approved_by IS NULL), count(DISTINCT created_by), "
                     + "count(*) FILTER (WHERE notes LIKE '%''%') FROM sales.orders")) {
            rs.next();
            assertEquals(750, rs.getLong(1), "half the orders are not approved: approved_by is nullable");
            assertTrue(rs.getLong(2) > 10);
            assertTrue(rs.getLong(3) > 0, "some notes carry quotes");
        }
    }

    @Test
    void loadingAgainAndConcurrentlyChangesNothing() throws Exception {
        String before = checksums();
        try (ExecutorService pool = Executors.newFixedThreadPool(3)) {
            List<Future<DatabaseUrl>> loads = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                loads.add(pool.submit(() -> SampleDatabase.ensureLoaded(url)));
            }
            for (Future<DatabaseUrl> f : loads) {
                f.get();
            }
        }
        assertEquals(before, checksums());
    }

    @Test
    void aForcedReloadYieldsTheSameData() throws SQLException {
        String before = checksums();
        SampleDatabase.recreate(url);
        assertEquals(before, checksums(), "the data is deterministic");
    }

    private static Map<String, Long> counts() throws SQLException {
        Map<String, Long> out = new LinkedHashMap<>();
        try (Connection c = url.connect(); Statement s = c.createStatement()) {
            for (String table : SampleDatabase.TABLES) {
                try (ResultSet rs = s.executeQuery("SELECT count(*) FROM " + table)) {
                    rs.next();
                    out.put(table, rs.getLong(1));
                }
            }
        }
        return out;
    }

    private static String checksums() throws SQLException {
        StringBuilder out = new StringBuilder();
        try (Connection c = url.connect(); Statement s = c.createStatement()) {
            for (String table : SampleDatabase.TABLES) {
                try (ResultSet rs = s.executeQuery("SELECT md5(string_agg(t::text, '|' ORDER BY t::text)) FROM " + table + " t")) {
                    rs.next();
                    out.append(table).append('=').append(rs.getString(1)).append('\n');
                }
            }
        }
        return out.toString();
    }
}
