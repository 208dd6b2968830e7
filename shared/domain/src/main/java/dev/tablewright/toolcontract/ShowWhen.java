package dev.tablewright.toolcontract;

/** A conditional field: shown (and then required, if it is required) only when {@code field} has value {@code equals}. */
public record ShowWhen(String field, String equals) {
}
