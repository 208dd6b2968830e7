package dev.tablewright.sql;

import java.util.List;

/**
 * What PostgreSQL's planner said about a query: a one-line summary, its cost and estimated rows, and warnings
 * worth showing (a sequential scan over a large table, a huge estimate).
 */
public record QueryPlan(String summary, double totalCost, long estimatedRows, List<String> warnings) {
    public QueryPlan {
        warnings = List.copyOf(warnings);
    }
}
