package dev.tablewright.validation;

/** One problem with a config or with a tool's arguments: a JSON-pointer-like {@code field} and a plain message. */
public record ValidationError(String field, String message) {
}
