package dev.tablewright.configstore;

import java.util.List;

/** A page of results; {@code nextCursor} is null on the last page and otherwise opaque to callers. */
public record Page<T>(List<T> items, String nextCursor) {
    public Page {
        items = List.copyOf(items);
    }
}
