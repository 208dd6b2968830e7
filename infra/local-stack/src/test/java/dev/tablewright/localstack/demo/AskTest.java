package dev.tablewright.localstack.demo;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

/** The phrasings the demo model reads, and what it makes of them. */
class AskTest {

    @Test
    void showXWithYIsANewTableWithItsParts() {
        Ask.Build b = assertInstanceOf(Ask.Build.class, Ask.read("Show stock levels with their warehouse name"));
        assertEquals(Words.of("stock_levels"), b.subject());
        assertEquals(List.of(Words.of("warehouses.name")), b.with());
        Ask.Build orders = assertInstanceOf(Ask.Build.class, Ask.read("show me all orders with their customer name, status and total amount."));
        assertEquals(List.of("their customer name", "status", "total amount"), orders.withText());
        assertEquals(List.of(), assertInstanceOf(Ask.Build.class, Ask.read("List customers")).with());
    }

    @Test
    void filtersReadTheirColumnOperatorAndValue() {
        Ask.Filter above = assertInstanceOf(Ask.Filter.class, Ask.read("Only show quantities above 100"));
        assertEquals(Words.of("quantity"), above.column());
        assertEquals("gt", above.operator());
        assertEquals(100L, above.value());
        Ask.Filter atMost = assertInstanceOf(Ask.Filter.class, Ask.read("only rows where total amount is at most 99.50"));
        assertEquals(Words.of("total_amount"), atMost.column());
        assertEquals("lte", atMost.operator());
        assertEquals(new BigDecimal("99.50"), atMost.value());
        Ask.Filter equal = assertInstanceOf(Ask.Filter.class, Ask.read("Show only warehouse name equal to \"Berlin Central\""));
        assertEquals(Words.of("warehouse name"), equal.column());
        assertEquals("eq", equal.operator());
        assertEquals("Berlin Central", equal.value());
        assertEquals("lt", assertInstanceOf(Ask.Filter.class, Ask.read("Only quantities below 5")).operator());
    }

    @Test
    void sortRemoveRenameAndAdd() {
        Ask.Sort sort = assertInstanceOf(Ask.Sort.class, Ask.read("Sort by quantity descending"));
        assertEquals(Words.of("quantity"), sort.column());
        assertEquals("desc", sort.direction());
        assertEquals("asc", assertInstanceOf(Ask.Sort.class, Ask.read("sort by the last counted at")).direction());
        assertEquals("desc", assertInstanceOf(Ask.Sort.class, Ask.read("Order by created at, newest first")).direction());
        assertEquals(Words.of("reorder_level"), assertInstanceOf(Ask.Remove.class, Ask.read("Remove the reorder level column")).column());
        Ask.Rename rename = assertInstanceOf(Ask.Rename.class, Ask.read("Rename quantity to On hand"));
        assertEquals(Words.of("quantity"), rename.column());
        assertEquals("On hand", rename.header());
        assertEquals(Words.of("last_counted_at"), assertInstanceOf(Ask.Add.class, Ask.read("Add the last counted at column")).column());
    }

    @Test
    void greetingsAskForHelpAndAnythingElseIsNotUnderstood() {
        assertInstanceOf(Ask.Help.class, Ask.read("hi"));
        assertInstanceOf(Ask.Help.class, Ask.read("What can you do?"));
        assertInstanceOf(Ask.NotUnderstood.class, Ask.read("What is the weather in Berlin?"));
        assertInstanceOf(Ask.NotUnderstood.class, Ask.read("Make the table prettier"));
    }
}
