package dev.tablewright.sql;

/**
 * Runs a compiled preview query: planned first (PostgreSQL's planner as the validator), then the sample,
 * in one READ ONLY transaction with a statement timeout. The JDBC adapter is {@code dev.tablewright.postgres.JdbcSampleRunner}.
 */
public interface SampleRunner {

    /** The plan and the sample of one query. */
    record Result(QueryPlan plan, SampleRows sample) {
    }

    Result planAndSample(CompiledQuery query) throws QueryFailure;

    /** Plans only (no rows are read). */
    QueryPlan plan(CompiledQuery query) throws QueryFailure;
}
