package dev.tablewright.schema;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

class ClosestNamesTest {

    @Test
    void closestFirstCaseInsensitive() {
        List<String> names = List.of("created_at", "created_by", "customer_id", "status", "total");
        assertEquals(List.of("created_at", "created_by"), ClosestNames.closest("creatd_at", names, 2));
        assertEquals(List.of("status"), ClosestNames.closest("STATUS", names, 1));
        assertEquals(List.of("customer_id"), ClosestNames.closest("customer", names, 1), "a prefix counts as close");
        assertTrue(ClosestNames.closest("zzzzzzzz", names, 3).isEmpty());
    }

    @Test
    void hintFallsBackToAFewKnownNames() {
        assertEquals(" Did you mean total?", ClosestNames.hint("totl", List.of("total", "status")));
        assertTrue(ClosestNames.hint("qqqqqqqq", List.of("total", "status")).startsWith(" Known: total, status"));
        assertEquals("", ClosestNames.hint("x", List.of()));
    }

    @Test
    void boundedOnHostileInput() {
        List<String> many = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            many.add("column_" + i);
        }
        String huge = "c".repeat(5 * 1024 * 1024);
        List<String> out = ClosestNames.closest(huge, many, 3);
        assertTrue(out.size() <= 3);
        assertEquals(List.of("column_1"), ClosestNames.closest("column_1", many, 1));
        assertEquals(3, ClosestNames.distance("kitten", "sitting"));
    }
}
