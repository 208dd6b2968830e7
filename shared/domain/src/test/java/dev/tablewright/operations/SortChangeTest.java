package dev.tablewright.operations;

import dev.tablewright.config.Sort;
import dev.tablewright.fixtures.FixtureCatalog;
import dev.tablewright.fixtures.Fixtures;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.tablewright.fixtures.Errors.assertHas;
import static dev.tablewright.operations.ColumnChangeTest.assertValid;
import static dev.tablewright.operations.ColumnChangeTest.settings;
import static org.junit.jupiter.api.Assertions.*;

class SortChangeTest {

    private final SortChange sorts = new SortChange();

    private static List<Sort> sort(OperationResult r) {
        return r.config().dataSource().get(0).sort();
    }

    @Test
    void theExampleAddsAndChangesDirection() {
        OperationResult r = assertValid(sorts.apply(Fixtures.orders(), SortChange.Operation.ADD, List.of(SortSpec.of("due_date", "desc"))));
        assertEquals(3, sort(r).size());
        assertEquals("due_date", sort(r).get(2).column());
        assertEquals("desc", sort(r).get(2).direction());
        OperationResult changed = assertValid(sorts.apply(Fixtures.orders(), SortChange.Operation.ADD, List.of(SortSpec.of("total", "DESC"))));
        assertEquals("desc", sort(changed).get(1).direction());
        assertEquals(List.of("sort on total changed to desc"), changed.applied());
        OperationResult defaultAsc = assertValid(sorts.apply(Fixtures.orders(), SortChange.Operation.ADD, List.of(SortSpec.of("notes", null))));
        assertEquals("asc", sort(defaultAsc).get(2).direction());
    }

    @Test
    void removeAndSet() {
        OperationResult removed = assertValid(sorts.apply(Fixtures.orders(), SortChange.Operation.REMOVE, List.of(SortSpec.of("created_at", null))));
        assertEquals(List.of("total"), sort(removed).stream().map(Sort::column).toList());
        assertHas(sorts.apply(Fixtures.orders(), SortChange.Operation.REMOVE, List.of(SortSpec.of("notes", null))).errors(),
                "sort[0].column", "not sorted by 'notes'");
        OperationResult set = assertValid(sorts.apply(Fixtures.orders(), SortChange.Operation.SET,
                List.of(SortSpec.of("customer_name", "asc"), SortSpec.of("id", "desc"))));
        assertEquals(List.of("customer_name", "id"), sort(set).stream().map(Sort::column).toList());
        assertEquals(List.of("sort set to customer_name asc, id desc"), set.applied());
        OperationResult cleared = assertValid(sorts.apply(Fixtures.orders(), SortChange.Operation.SET, List.of()));
        assertTrue(sort(cleared).isEmpty());
        assertEquals(List.of("sort cleared"), cleared.applied());
    }

    @Test
    void anUnselectedSortColumnIsAddedHidden() {
        OperationResult r = assertValid(new SortChange(new FixtureCatalog()).apply(Fixtures.orders(), SortChange.Operation.ADD,
                List.of(SortSpec.of("shipped_at", "desc"))));
        assertTrue(settings(r, "shipped_at").isHidden());
        assertEquals(List.of("shipped_at added as a hidden column", "sort on shipped_at desc added"), r.applied());
    }

    @Test
    void badSortInput() {
        assertHas(sorts.apply(Fixtures.orders(), SortChange.Operation.SET, List.of(SortSpec.of("id", "asc"), SortSpec.of("id", "desc"))).errors(),
                "sort[1].column", "appears twice");
        assertHas(sorts.apply(Fixtures.orders(), SortChange.Operation.ADD, List.of(SortSpec.of("id", "up"))).errors(),
                "sort[0].direction", "not asc or desc");
        assertHas(sorts.apply(Fixtures.orders(), SortChange.Operation.ADD, List.of()).errors(), "sort", "empty");
        assertHas(sorts.apply(Fixtures.orders(), null, List.of(SortSpec.of("id", "asc"))).errors(), "operation", "missing");
        assertHas(sorts.apply(null, SortChange.Operation.ADD, List.of(SortSpec.of("id", "asc"))).errors(), "config", "missing");
    }
}
