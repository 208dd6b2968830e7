package dev.tablewright.sql;

/**
 * PostgreSQL refused or stopped a preview query. {@code field} names the config field at fault when known
 * (a bad filter value); the message is PostgreSQL's, without the SQL's parameter values.
 */
public final class QueryFailure extends Exception {

    public enum Kind {
        /** The planner refused the query (EXPLAIN failed). */
        PLANNING,
        /** A value could not be used (invalid date, number, enum label). */
        INVALID_VALUE,
        /** The statement timeout cut it. */
        TIMEOUT,
        /** The database is unreachable or refused the connection. */
        UNAVAILABLE,
        /** Any other execution error. */
        EXECUTION
    }

    private final Kind kind;
    private final String sqlState;
    private final String field;

    public QueryFailure(Kind kind, String sqlState, String field, String message, Throwable cause) {
        super(message, cause);
        this.kind = kind;
        this.sqlState = sqlState;
        this.field = field;
    }

    public Kind kind() {
        return kind;
    }

    public String sqlState() {
        return sqlState;
    }

    public String field() {
        return field;
    }
}
