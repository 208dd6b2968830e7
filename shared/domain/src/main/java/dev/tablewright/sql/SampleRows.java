package dev.tablewright.sql;

import java.util.List;

/**
 * The first rows of a preview query, one list per row in {@link CompiledQuery#columns()} order. Values are Java
 * values: String, Long/Integer/BigDecimal/Double, Boolean, java.time (LocalDate, LocalDateTime, OffsetDateTime,
 * LocalTime), or null. {@code more} is true when the query has rows beyond the limit.
 */
public record SampleRows(List<List<Object>> rows, boolean more) {
}
