package dev.tablewright.systemtest.database;

import dev.tablewright.fakes.sampledb.SampleDatabase;
import dev.tablewright.postgres.DatabaseUrl;
import dev.tablewright.postgres.JdbcSchemaCatalog;
import dev.tablewright.postgres.ReusedConnection;
import dev.tablewright.schema.ColumnInfo;
import dev.tablewright.schema.ForeignKey;
import dev.tablewright.schema.TableInfo;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Introspection of every table and relationship of the sample database, on the real PostgreSQL. */
class JdbcSchemaCatalogTest {

    static DatabaseUrl url;
    static ReusedConnection connection;
    static JdbcSchemaCatalog catalog;

    @BeforeAll
    static void setUp() {
        url = DatabaseTestSupport.database();
        connection = new ReusedConnection(url::connect);
        catalog = new JdbcSchemaCatalog(connection, List.of("sales", "core", "inventory", "analytics", "no_such_schema"));
    }

    @AfterAll
    static void tearDown() {
        connection.close();
    }

    @Test
    void listsTheAllowedSchemasThatExistInAllowListOrder() {
        assertEquals(List.of("sales", "core", "inventory", "analytics"), catalog.schemas());
        assertTrue(catalog.tables("public").isEmpty(), "public is not on the allow-list");
        assertTrue(catalog.table("pg_catalog", "pg_class").isEmpty());
    }

    @Test
    void everySampleTableAndViewIsVisibleWithItsKind() {
        Set<String> names = catalog.schemas().stream().flatMap(s -> catalog.tables(s).stream())
                .map(t -> t.qualifiedName() + ":" + t.kind()).collect(Collectors.toSet());
        for (String table : SampleDatabase.TABLES) {
            assertTrue(names.contains(table + ":table"), table);
        }
        assertTrue(names.contains("analytics.calendar_minutes:view"));
        assertTrue(names.contains("analytics.monthly_sales:view"));
        assertEquals(SampleDatabase.TABLES.size() + 2, names.size());
    }

    @Test
    void columnsCarryTypeNullabilityKeyDefaultAndEnumFlag() {
        TableInfo orders = catalog.table("sales", "orders").orElseThrow();
        assertEquals(List.of("id", "order_number", "customer_id", "warehouse_id", "status", "created_by", "approved_by",
                "created_at", "approved_at", "due_date", "total_amount", "notes"),
                orders.columns().stream().map(ColumnInfo::name).toList());
        ColumnInfo id = orders.column("id").orElseThrow();
        assertTrue(id.primaryKey());
        assertFalse(id.nullable());
        ColumnInfo status = orders.column("status").orElseThrow();
        assertEquals("sales.order_status", status.pgType());
        assertTrue(status.userDefinedEnum());
        assertEquals("'draft'::sales.order_status", status.defaultValue());
        assertEquals("timestamp with time zone", orders.column("created_at").orElseThrow().pgType());
        assertEquals("numeric(14,2)", orders.column("total_amount").orElseThrow().pgType());
        assertTrue(orders.column("approved_by").orElseThrow().nullable());
        assertNull(orders.column("notes").orElseThrow().defaultValue());
        assertEquals("timestamp without time zone",
                catalog.table("inventory", "items").orElseThrow().column("created_at").orElseThrow().pgType());
        TableInfo stock = catalog.table("inventory", "stock_levels").orElseThrow();
        assertTrue(stock.column("warehouse_id").orElseThrow().primaryKey());
        assertTrue(stock.column("item_id").orElseThrow().primaryKey());
        assertFalse(stock.column("quantity").orElseThrow().primaryKey());
    }

    @Test
    void usersAreReferencedTwiceFromOrdersAndOnceFromWarehousesAndThemselves() {
        TableInfo users = catalog.table("core", "users").orElseThrow();
        Set<String> incoming = users.incoming().stream().map(JdbcSchemaCatalogTest::describe).collect(Collectors.toSet());
        assertEquals(Set.of("sales.orders(created_by)->core.users(id)", "sales.orders(approved_by)->core.users(id)",
                "core.warehouses(manager_id)->core.users(id)", "core.users(reports_to)->core.users(id)"), incoming);
        assertEquals(Set.of("core.users(reports_to)->core.users(id)"),
                users.outgoing().stream().map(JdbcSchemaCatalogTest::describe).collect(Collectors.toSet()));
    }

    @Test
    void everyForeignKeyOfTheSampleBothWaysIncludingTheMultiColumnOne() {
        Set<String> outgoing = catalog.schemas().stream().flatMap(s -> catalog.tables(s).stream())
                .flatMap(t -> t.outgoing().stream()).map(JdbcSchemaCatalogTest::describe).collect(Collectors.toSet());
        Set<String> incoming = catalog.schemas().stream().flatMap(s -> catalog.tables(s).stream())
                .flatMap(t -> t.incoming().stream()).map(JdbcSchemaCatalogTest::describe).collect(Collectors.toSet());
        Set<String> expected = Set.of(
                "core.users(reports_to)->core.users(id)",
                "core.warehouses(manager_id)->core.users(id)",
                "inventory.stock_levels(warehouse_id)->core.warehouses(id)",
                "inventory.stock_levels(item_id)->inventory.items(id)",
                "sales.orders(customer_id)->sales.customers(id)",
                "sales.orders(warehouse_id)->core.warehouses(id)",
                "sales.orders(created_by)->core.users(id)",
                "sales.orders(approved_by)->core.users(id)",
                "sales.order_lines(order_id)->sales.orders(id)",
                "sales.order_lines(warehouse_id,item_id)->inventory.stock_levels(warehouse_id,item_id)");
        assertEquals(expected, outgoing);
        assertEquals(expected, incoming, "every key is seen from both ends");
        ForeignKey multi = catalog.table("inventory", "stock_levels").orElseThrow().incoming().get(0);
        assertEquals("order_lines_stock_fkey", multi.name());
        assertEquals(List.of("warehouse_id", "item_id"), multi.fromColumns());
    }

    @Test
    void foreignKeysToSchemasOffTheAllowListAreHidden() {
        JdbcSchemaCatalog salesOnly = new JdbcSchemaCatalog(connection, List.of("sales"));
        TableInfo orders = salesOnly.table("sales", "orders").orElseThrow();
        assertEquals(Set.of("sales.orders(customer_id)->sales.customers(id)"),
                orders.outgoing().stream().map(JdbcSchemaCatalogTest::describe).collect(Collectors.toSet()));
        assertEquals(List.of("sales"), salesOnly.schemas());
    }

    @Test
    void resultsAreCachedForTheTtlThenReadAgain() throws Exception {
        MutableClock clock = new MutableClock();
        try (Connection c = url.connect(); Statement s = c.createStatement()) {
            s.execute("DROP SCHEMA IF EXISTS catalog_ttl_it CASCADE; CREATE SCHEMA catalog_ttl_it; CREATE TABLE catalog_ttl_it.a (id int)");
            JdbcSchemaCatalog cached = new JdbcSchemaCatalog(connection, List.of("catalog_ttl_it"), Duration.ofSeconds(30), clock);
            assertEquals(List.of("a"), cached.tables("catalog_ttl_it").stream().map(TableInfo::name).toList());
            s.execute("CREATE TABLE catalog_ttl_it.b (id int)");
            clock.now = clock.now.plusSeconds(29);
            assertEquals(List.of("a"), cached.tables("catalog_ttl_it").stream().map(TableInfo::name).toList(), "cached");
            clock.now = clock.now.plusSeconds(1);
            assertEquals(List.of("a", "b"), cached.tables("catalog_ttl_it").stream().map(TableInfo::name).toList(), "read again");
            s.execute("DROP SCHEMA catalog_ttl_it CASCADE");
        }
    }

    private static String describe(ForeignKey fk) {
        return fk.fromSchema() + "." + fk.fromTable() + "(" + String.join(",", fk.fromColumns()) + ")->"
                + fk.toSchema() + "." + fk.toTable() + "(" + String.join(",", fk.toColumns()) + ")";
    }

    static final class MutableClock extends Clock {
        Instant now = Instant.parse("2026-01-01T00:00:00Z");

        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }
}
