package dev.tablewright.postgres;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.json.Json;
import dev.tablewright.logging.StructuredLog;
import dev.tablewright.sql.BoundValue;
import dev.tablewright.sql.CompiledQuery;
import dev.tablewright.sql.QueryFailure;
import dev.tablewright.sql.QueryPlan;
import dev.tablewright.grounding.ResultColumn;
import dev.tablewright.sql.SampleRows;
import dev.tablewright.sql.SampleRunner;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;

/**
 * Plans and samples preview queries on PostgreSQL. Everything runs in one transaction that is READ ONLY, has a
 * statement timeout (and lock and idle timeouts), UTC as time zone and {@code pg_catalog} as search path (every name
 * in the SQL is schema-qualified, so nothing a user created in {@code public} can stand in for an operator), and is
 * always rolled back. The sample is fetched with a row cap.
 */
public final class JdbcSampleRunner implements SampleRunner {

    public static final Duration DEFAULT_STATEMENT_TIMEOUT = Duration.ofSeconds(5);
    /** Estimated rows above which a sequential scan is worth a warning. */
    private static final long LARGE_SCAN_ROWS = 1_000_000;

    private static final StructuredLog LOG = StructuredLog.of(JdbcSampleRunner.class);

    private final ReusedConnection connection;
    private final long timeoutMillis;

    public JdbcSampleRunner(ReusedConnection connection, Duration statementTimeout) {
        this.connection = connection;
        this.timeoutMillis = Math.max(1, statementTimeout.toMillis());
    }

    @Override
    public Result planAndSample(CompiledQuery query) throws QueryFailure {
        return inReadOnlyTransaction(query, c -> new Result(explain(c, query), sample(c, query)));
    }

    @Override
    public QueryPlan plan(CompiledQuery query) throws QueryFailure {
        return inReadOnlyTransaction(query, c -> explain(c, query));
    }

    private <T> T inReadOnlyTransaction(CompiledQuery query, ReusedConnection.Work<T> work) throws QueryFailure {
        SQLException failure;
        String stage;
        try {
            return connection.with(c -> {
                c.setAutoCommit(false);
                try {
                    try (Statement s = c.createStatement()) {
                        s.execute("SET TRANSACTION READ ONLY; SET LOCAL statement_timeout = " + timeoutMillis
                                + "; SET LOCAL lock_timeout = " + timeoutMillis
                                + "; SET LOCAL idle_in_transaction_session_timeout = " + (timeoutMillis * 4 + 1000)
                                + "; SET LOCAL search_path = pg_catalog; SET LOCAL TIME ZONE 'UTC'");
                    }
                    return work.run(c);
                } finally {
                    rollbackQuietly(c);
                }
            });
        } catch (StageFailure e) {
            failure = e.cause;
            stage = e.stage;
        } catch (SQLException e) {
            failure = e;
            stage = "setup";
        }
        throw failure(query, failure, stage);
    }

    private static final String EXPLAIN = "EXPLAIN (FORMAT JSON) ";

    private QueryPlan explain(Connection c, CompiledQuery query) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(EXPLAIN + query.sql())) {
            bind(ps, query.parameters());
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return summarise(Json.parse(rs.getString(1)).path(0).path("Plan"));
            }
        } catch (SQLException e) {
            throw new StageFailure("plan", e);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new SQLException("unreadable EXPLAIN output", e);
        }
    }

    private SampleRows sample(Connection c, CompiledQuery query) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(query.sql())) {
            ps.setFetchSize(query.rowLimit() + 1);
            ps.setMaxRows(query.rowLimit() + 1);
            bind(ps, query.parameters());
            List<List<Object>> rows = new ArrayList<>();
            boolean more = false;
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    if (rows.size() == query.rowLimit()) {
                        more = true;
                        break;
                    }
                    List<Object> row = new ArrayList<>(query.columns().size());
                    for (int i = 0; i < query.columns().size(); i++) {
                        row.add(read(rs, i + 1, query.columns().get(i)));
                    }
                    rows.add(row);
                }
            }
            return new SampleRows(rows, more);
        } catch (SQLException e) {
            throw new StageFailure("sample", e);
        }
    }

    private static void bind(PreparedStatement ps, List<BoundValue> values) throws SQLException {
        for (int i = 0; i < values.size(); i++) {
            ps.setString(i + 1, values.get(i).text());
        }
    }

    private static Object read(ResultSet rs, int i, ResultColumn column) throws SQLException {
        String type = column.column().pgType();
        try {
            Object value;
            if (type.startsWith("timestamp") && type.contains("with time zone")) {
                value = rs.getObject(i, OffsetDateTime.class);
            } else if (type.startsWith("timestamp")) {
                value = rs.getObject(i, LocalDateTime.class);
            } else if (type.equals("date")) {
                value = rs.getObject(i, LocalDate.class);
            } else if (type.startsWith("time") && !type.contains("with time zone")) {
                value = rs.getObject(i, LocalTime.class);
            } else if (type.equals("smallint") || type.equals("integer") || type.equals("bigint")) {
                long v = rs.getLong(i);
                value = rs.wasNull() ? null : v;
            } else if (type.startsWith("numeric") || type.equals("real") || type.equals("double precision")) {
                value = rs.getBigDecimal(i);
            } else if (type.equals("boolean")) {
                boolean v = rs.getBoolean(i);
                value = rs.wasNull() ? null : v;
            } else {
                value = rs.getString(i);
            }
            return value;
        } catch (SQLException | RuntimeException e) {
            // infinity dates, out-of-range values: show PostgreSQL's text
            return rs.getString(i);
        }
    }

    // ---------------------------------------------------------------- plan summary

    private static QueryPlan summarise(JsonNode plan) {
        List<String> path = new ArrayList<>();
        List<String> scans = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        walk(plan, path, scans, warnings, 0);
        StringBuilder summary = new StringBuilder(String.join(" > ", path));
        if (!scans.isEmpty()) {
            summary.append("; scans: ").append(String.join(", ", scans));
        }
        double cost = plan.path("Total Cost").asDouble();
        long rows = plan.path("Plan Rows").asLong();
        summary.append(String.format(java.util.Locale.ROOT, "; estimated %d rows, cost %.1f", rows, cost));
        return new QueryPlan(summary.toString(), cost, rows, warnings);
    }

    private static void walk(JsonNode node, List<String> path, List<String> scans, List<String> warnings, int depth) {
        String type = node.path("Node Type").asText();
        String relation = node.path("Relation Name").asText(null);
        String schema = node.path("Schema").asText(null);
        String joinType = node.path("Join Type").asText(null);
        if (relation != null) {
            String name = (schema == null ? "" : schema + ".") + relation;
            long rows = node.path("Plan Rows").asLong();
            scans.add(type + " on " + name);
            if (type.equals("Seq Scan") && rows > LARGE_SCAN_ROWS) {
                warnings.add("a sequential scan of " + name + " (about " + rows + " rows): a filter on an indexed column would help");
            }
        } else if (depth < 4 && path.size() < 6) {
            path.add(joinType != null && type.endsWith("Join") ? type.replace("Join", joinType + " Join") : type);
        }
        for (JsonNode child : node.path("Plans")) {
            walk(child, path, scans, warnings, depth + 1);
        }
    }

    // ---------------------------------------------------------------- failures

    /** Carries the stage (plan or sample) a statement failed in out of the connection work. */
    private static final class StageFailure extends SQLException {
        final String stage;
        final SQLException cause;

        StageFailure(String stage, SQLException cause) {
            super(cause.getMessage(), cause.getSQLState(), cause);
            this.stage = stage;
            this.cause = cause;
        }
    }

    private QueryFailure failure(CompiledQuery query, SQLException e, String stage) {
        String state = e.getSQLState() == null ? "" : e.getSQLState();
        LOG.warn("preview query failed", "stage", stage, "sqlState", state);
        String message = serverMessage(e);
        if (state.equals("57014")) {
            return new QueryFailure(QueryFailure.Kind.TIMEOUT, state, null, "the query ran longer than the statement timeout ("
                    + timeoutMillis + " ms) and was stopped; narrow it with a filter (on an indexed column), fewer joins or no sort on a large table", e);
        }
        if (state.startsWith("08") || state.startsWith("28") || state.equals("53300") || state.equals("57P03")) {
            return new QueryFailure(QueryFailure.Kind.UNAVAILABLE, state, null, "the database is unavailable (SQLState " + state + ")", e);
        }
        String field = fieldAtErrorPosition(query, e, stage);
        if (state.startsWith("22")) {
            return new QueryFailure(QueryFailure.Kind.INVALID_VALUE, state, field != null ? field : badValueField(query), message, e);
        }
        if (stage.equals("plan")) {
            return new QueryFailure(QueryFailure.Kind.PLANNING, state, field, "PostgreSQL could not plan the query: " + message, e);
        }
        return new QueryFailure(QueryFailure.Kind.EXECUTION, state, field, "the query failed: " + message, e);
    }

    /** The config field whose SQL PostgreSQL's error position points into (a filter or a sort), or null. */
    private static String fieldAtErrorPosition(CompiledQuery query, SQLException e, String stage) {
        if (!(e instanceof org.postgresql.util.PSQLException p) || p.getServerErrorMessage() == null
                || p.getServerErrorMessage().getPosition() <= 0) {
            return null;
        }
        // pgjdbc sends "?" as "$n": positions after a placeholder shift by the extra characters of the earlier ones.
        String sent = (stage.equals("plan") ? EXPLAIN : "") + query.sql();
        int position = p.getServerErrorMessage().getPosition() - 1;
        int offset = 0;
        int n = 0;
        int prefix = stage.equals("plan") ? EXPLAIN.length() : 0;
        for (int i = 0, served = 0; i < sent.length() && served < position; i++) {
            if (sent.charAt(i) == '?') {
                n++;
                int extra = ("$" + n).length() - 1;
                served += 1 + extra;
                offset += extra;
            } else {
                served++;
            }
        }
        return query.fieldAt(position - offset - prefix);
    }

    /** Which bound value PostgreSQL refused: each is cast on its own until one fails (only on this error path). */
    private String badValueField(CompiledQuery query) {
        try {
            return connection.with(c -> {
                c.setAutoCommit(false);
                try (Statement s = c.createStatement()) {
                    s.execute("SET TRANSACTION READ ONLY; SET LOCAL statement_timeout = " + timeoutMillis
                            + "; SET LOCAL search_path = pg_catalog");
                    for (BoundValue v : query.parameters()) {
                        if (v.castType() == null) {
                            continue;
                        }
                        try (PreparedStatement ps = c.prepareStatement("SELECT CAST(? AS " + v.castType() + ")")) {
                            ps.setString(1, v.text());
                            ps.executeQuery().close();
                        } catch (SQLException bad) {
                            return v.field();
                        }
                    }
                    return null;
                } finally {
                    rollbackQuietly(c);
                }
            });
        } catch (SQLException e) {
            return null;
        }
    }

    /** PostgreSQL's primary message, without the "ERROR:" prefix or position details. */
    private static String serverMessage(SQLException e) {
        if (e instanceof org.postgresql.util.PSQLException p && p.getServerErrorMessage() != null) {
            return p.getServerErrorMessage().getMessage();
        }
        String m = e.getMessage() == null ? "" : e.getMessage();
        int newline = m.indexOf('\n');
        return newline > 0 ? m.substring(0, newline) : m;
    }

    private static void rollbackQuietly(Connection c) {
        try {
            c.rollback();
            c.setAutoCommit(true);
        } catch (SQLException ignored) {
            // the connection is broken; ReusedConnection replaces it next time
        }
    }
}
