package dev.tablewright.postgres;

import dev.tablewright.schema.CatalogUnavailableException;
import dev.tablewright.schema.ColumnInfo;
import dev.tablewright.schema.ForeignKey;
import dev.tablewright.schema.SchemaCatalog;
import dev.tablewright.schema.TableInfo;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@link SchemaCatalog} over PostgreSQL's system catalogue. Only schemas on the allow-list are visible, and of
 * those only the tables and views the connected role may SELECT; a foreign key is visible only when both of its
 * ends are. The whole visible catalogue is read in two queries and kept for {@code ttl} (a short TTL: schema
 * changes show up within it, warm invocations pay nothing).
 */
public final class JdbcSchemaCatalog implements SchemaCatalog {

    public static final Duration DEFAULT_TTL = Duration.ofSeconds(60);

    private static final String COLUMNS = """
            SELECT n.nspname, c.relname, c.relkind, a.attname, format_type(a.atttypid, a.atttypmod),
                   NOT a.attnotnull, pg_get_expr(d.adbin, d.adrelid), t.typtype = 'e',
                   EXISTS (SELECT 1 FROM pg_constraint pk
                           WHERE pk.conrelid = c.oid AND pk.contype = 'p' AND a.attnum = ANY (pk.conkey)),
                   CASE WHEN t.typtype = 'e' THEN ARRAY(SELECT e.enumlabel FROM pg_enum e WHERE e.enumtypid = t.oid
                                                        ORDER BY e.enumsortorder) END
            FROM pg_class c
            JOIN pg_namespace n ON n.oid = c.relnamespace
            JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
            JOIN pg_type t ON t.oid = a.atttypid
            LEFT JOIN pg_attrdef d ON d.adrelid = c.oid AND d.adnum = a.attnum
            WHERE n.nspname = ANY (?) AND c.relkind IN ('r', 'p', 'v', 'm', 'f')
              AND has_table_privilege(c.oid, 'SELECT')
            ORDER BY n.nspname, c.relname, a.attnum
            """;

    private static final String FOREIGN_KEYS = """
            SELECT con.conname, fn.nspname, fc.relname, tn.nspname, tc.relname,
                   ARRAY(SELECT a.attname FROM unnest(con.conkey) WITH ORDINALITY AS k(num, pos)
                         JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.num ORDER BY k.pos),
                   ARRAY(SELECT a.attname FROM unnest(con.confkey) WITH ORDINALITY AS k(num, pos)
                         JOIN pg_attribute a ON a.attrelid = con.confrelid AND a.attnum = k.num ORDER BY k.pos)
            FROM pg_constraint con
            JOIN pg_class fc ON fc.oid = con.conrelid
            JOIN pg_namespace fn ON fn.oid = fc.relnamespace
            JOIN pg_class tc ON tc.oid = con.confrelid
            JOIN pg_namespace tn ON tn.oid = tc.relnamespace
            WHERE con.contype = 'f' AND fn.nspname = ANY (?) AND tn.nspname = ANY (?)
              AND has_table_privilege(fc.oid, 'SELECT') AND has_table_privilege(tc.oid, 'SELECT')
            ORDER BY fn.nspname, fc.relname, con.conname
            """;

    private final ReusedConnection connection;
    private final List<String> allowedSchemas;
    private final Duration ttl;
    private final Clock clock;
    private Snapshot snapshot;

    private record Snapshot(Instant loadedAt, Map<String, List<TableInfo>> bySchema) {
    }

    public JdbcSchemaCatalog(ReusedConnection connection, List<String> allowedSchemas, Duration ttl, Clock clock) {
        this.connection = connection;
        this.allowedSchemas = List.copyOf(allowedSchemas);
        this.ttl = ttl;
        this.clock = clock;
    }

    public JdbcSchemaCatalog(ReusedConnection connection, List<String> allowedSchemas) {
        this(connection, allowedSchemas, DEFAULT_TTL, Clock.systemUTC());
    }

    @Override
    public List<String> schemas() {
        return List.copyOf(current().bySchema().keySet());
    }

    @Override
    public List<TableInfo> tables(String schema) {
        return current().bySchema().getOrDefault(schema, List.of());
    }

    @Override
    public Optional<TableInfo> table(String schema, String table) {
        return tables(schema).stream().filter(t -> t.name().equals(table)).findFirst();
    }

    /** Forgets the cached catalogue (the next call reads it again). */
    public synchronized void invalidate() {
        snapshot = null;
    }

    private synchronized Snapshot current() {
        Instant now = clock.instant();
        if (snapshot == null || !now.isBefore(snapshot.loadedAt().plus(ttl))) {
            try {
                snapshot = new Snapshot(now, connection.with(this::load));
            } catch (SQLException e) {
                throw new CatalogUnavailableException("the database catalogue could not be read (SQLState "
                        + e.getSQLState() + ")", e);
            }
        }
        return snapshot;
    }

    private Map<String, List<TableInfo>> load(Connection c) throws SQLException {
        try (java.sql.Statement s = c.createStatement()) {
            // format_type qualifies a type unless it is on the search path: with only pg_catalog there, every
            // user-defined type (enums) comes back schema-qualified, as the compiled SQL needs it.
            s.execute("SET search_path TO pg_catalog");
        }
        Array schemas = c.createArrayOf("text", allowedSchemas.toArray());
        // schema -> table -> (kind, columns); kept in catalogue order
        Map<String, Map<String, String>> kinds = new LinkedHashMap<>();
        Map<String, Map<String, List<ColumnInfo>>> columns = new LinkedHashMap<>();
        try (PreparedStatement ps = c.prepareStatement(COLUMNS)) {
            ps.setArray(1, schemas);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String schema = rs.getString(1);
                    String table = rs.getString(2);
                    kinds.computeIfAbsent(schema, s -> new LinkedHashMap<>()).put(table, kind(rs.getString(3)));
                    columns.computeIfAbsent(schema, s -> new LinkedHashMap<>())
                            .computeIfAbsent(table, t -> new ArrayList<>())
                            .add(new ColumnInfo(rs.getString(4), rs.getString(5), rs.getBoolean(6),
                                    rs.getBoolean(9), rs.getString(7), rs.getBoolean(8),
                                    rs.getArray(10) == null ? List.of() : names(rs.getArray(10))));
                }
            }
        }
        Map<String, List<ForeignKey>> outgoing = new LinkedHashMap<>();
        Map<String, List<ForeignKey>> incoming = new LinkedHashMap<>();
        try (PreparedStatement ps = c.prepareStatement(FOREIGN_KEYS)) {
            ps.setArray(1, schemas);
            ps.setArray(2, schemas);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    ForeignKey fk = new ForeignKey(rs.getString(1), rs.getString(2), rs.getString(3),
                            names(rs.getArray(6)), rs.getString(4), rs.getString(5), names(rs.getArray(7)));
                    outgoing.computeIfAbsent(fk.fromSchema() + "." + fk.fromTable(), k -> new ArrayList<>()).add(fk);
                    incoming.computeIfAbsent(fk.toSchema() + "." + fk.toTable(), k -> new ArrayList<>()).add(fk);
                }
            }
        }
        Map<String, List<TableInfo>> out = new LinkedHashMap<>();
        for (String schema : allowedSchemas) {
            Map<String, List<ColumnInfo>> tables = columns.get(schema);
            if (tables == null) {
                continue;
            }
            List<TableInfo> infos = new ArrayList<>();
            tables.forEach((table, cols) -> {
                String key = schema + "." + table;
                infos.add(new TableInfo(schema, table, kinds.get(schema).get(table), cols,
                        outgoing.getOrDefault(key, List.of()), incoming.getOrDefault(key, List.of())));
            });
            out.put(schema, List.copyOf(infos));
        }
        return out;
    }

    private static List<String> names(Array array) throws SQLException {
        return Arrays.asList((String[]) array.getArray());
    }

    private static String kind(String relkind) {
        return switch (relkind) {
            case "v" -> "view";
            case "m" -> "materialized view";
            case "f" -> "foreign table";
            case "p" -> "partitioned table";
            default -> "table";
        };
    }
}
