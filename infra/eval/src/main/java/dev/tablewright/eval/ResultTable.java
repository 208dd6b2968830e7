package dev.tablewright.eval;

import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * A query's result as the grader compares it: column names, and each row as canonical values by position, so the
 * golden query and a saved config's query agree whatever types they reach a value through. A number is its exact
 * decimal without trailing zeros ({@code 12.50} and {@code 12.5}, an {@code integer} 3 and a {@code numeric} 3.00
 * agree), a {@code timestamptz} its instant in UTC, a {@code timestamp} and a {@code date} their ISO text, a boolean
 * {@code true}/{@code false}, anything else (text, enum labels) its text; SQL NULL is {@code null}.
 */
public record ResultTable(List<String> columns, List<List<String>> rows) {

    /** Beyond this many rows a result is refused rather than held: no task of a table builder needs more. */
    public static final int MAX_ROWS = 100_000;

    public ResultTable {
        columns = List.copyOf(columns);
        rows = Collections.unmodifiableList(new ArrayList<>(rows));
    }

    /** Reads every row of {@code rs}, keeping the columns at {@code keep} (0-based), in that order; null keeps all. */
    static ResultTable read(ResultSet rs, List<Integer> keep) throws SQLException {
        ResultSetMetaData meta = rs.getMetaData();
        List<Integer> positions = new ArrayList<>();
        if (keep == null) {
            for (int i = 0; i < meta.getColumnCount(); i++) {
                positions.add(i);
            }
        } else {
            positions.addAll(keep);
        }
        List<String> names = new ArrayList<>();
        for (int p : positions) {
            names.add(meta.getColumnLabel(p + 1));
        }
        List<List<String>> rows = new ArrayList<>();
        while (rs.next()) {
            if (rows.size() == MAX_ROWS) {
                throw new SQLException("the query returns more than " + MAX_ROWS + " rows", "54000");
            }
            List<String> row = new ArrayList<>(positions.size());
            for (int p : positions) {
                row.add(canonical(rs, p + 1, meta.getColumnTypeName(p + 1)));
            }
            rows.add(Collections.unmodifiableList(row));
        }
        return new ResultTable(names, rows);
    }

    static String canonical(ResultSet rs, int column, String typeName) throws SQLException {
        Object value = rs.getObject(column);
        if (value == null) {
            return null;
        }
        String type = typeName == null ? "" : typeName.toLowerCase(Locale.ROOT);
        switch (type) {
            case "timestamptz" -> {
                return rs.getObject(column, OffsetDateTime.class).toInstant().toString();
            }
            case "timestamp" -> {
                return rs.getObject(column, LocalDateTime.class).toString();
            }
            case "date" -> {
                return rs.getObject(column, LocalDate.class).toString();
            }
            default -> {
            }
        }
        if (value instanceof Boolean b) {
            return b.toString();
        }
        if (value instanceof Number n) {
            return number(n);
        }
        return rs.getString(column);
    }

    static String number(Number n) {
        if (n instanceof Double d && (d.isNaN() || d.isInfinite()) || n instanceof Float f && (f.isNaN() || f.isInfinite())) {
            return n.toString();
        }
        BigDecimal exact = n instanceof BigDecimal b ? b : new BigDecimal(n.toString());
        return exact.signum() == 0 ? "0" : exact.stripTrailingZeros().toPlainString();
    }

    /** A row as the reasons show it: {@code [SO-000001, shipped, 12.5]}. */
    static String show(List<String> row) {
        List<String> cells = new ArrayList<>(row.size());
        for (String v : row) {
            cells.add(v == null ? "NULL" : v.length() > 40 ? v.substring(0, 40) + "…" : v);
        }
        return "[" + String.join(", ", cells) + "]";
    }
}
