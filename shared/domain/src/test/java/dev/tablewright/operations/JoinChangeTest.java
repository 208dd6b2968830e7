package dev.tablewright.operations;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.tablewright.config.ForeignTable;
import dev.tablewright.config.TableConfig;
import dev.tablewright.fixtures.FixtureCatalog;
import dev.tablewright.fixtures.Fixtures;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.tablewright.fixtures.Errors.assertHas;
import static dev.tablewright.operations.ColumnChangeTest.assertValid;
import static dev.tablewright.operations.ColumnChangeTest.columns;
import static dev.tablewright.operations.ColumnChangeTest.settings;
import static org.junit.jupiter.api.Assertions.*;

class JoinChangeTest {

    private final JoinChange ungrounded = new JoinChange();
    private final JoinChange grounded = new JoinChange(new FixtureCatalog());

    private static List<ForeignTable> joins(TableConfig c) {
        return c.dataSource().get(0).select().foreignTables();
    }

    private static JoinSpec users(String from, String... columns) {
        List<ColumnSpec> cols = new java.util.ArrayList<>();
        for (String c : columns) {
            cols.add(ColumnSpec.named(c));
        }
        return new JoinSpec("users", "core", null, "LEFT", from, "users.id", cols);
    }

    @Test
    void theExampleJoinWithColumnsToAdd() {
        OperationResult r = assertValid(grounded.add(Fixtures.emptyOrders(), users("orders.created_by", "first_name", "last_name")));
        ForeignTable ft = joins(r.config()).get(0);
        assertEquals("users_created_by", ft.alias(), "named after the relationship, as in the design's example");
        assertEquals("core", ft.schema());
        assertEquals("LEFT", ft.joinType());
        assertEquals("orders.created_by", ft.relationshipFrom());
        assertEquals("users.id", ft.relationshipTo());
        assertEquals("users_created_by", columns(r.config()).get(0).table());
        assertEquals("string", settings(r, "first_name").type());
        assertEquals("join core.users added as users_created_by (named after created_by): LEFT JOIN on orders.created_by = users.id",
                r.applied().get(0));
        assertEquals(3, r.applied().size());
        // a column that just names the table gives the table's name
        OperationResult customers = assertValid(ungrounded.add(Fixtures.emptyOrders(),
                new JoinSpec("customers", "sales", null, null, "orders.customer_id", "customers.id", List.of())));
        assertEquals("customers", joins(customers.config()).get(0).alias());
        assertTrue(JoinChange.namesTable("category", "categories"));
        assertTrue(JoinChange.namesTable("box", "boxes"));
        assertTrue(JoinChange.namesTable("warehouse", "warehouses"));
        assertFalse(JoinChange.namesTable("created_by", "users"));
    }

    @Test
    void sameTableTwiceGetsAliasesFromRelationshipFrom() {
        OperationResult first = assertValid(grounded.add(Fixtures.emptyOrders(), users("orders.created_by", "first_name")));
        OperationResult second = assertValid(grounded.add(first.config(), users("orders.approved_by", "first_name")));
        ForeignTable ft = joins(second.config()).get(1);
        assertEquals("users_approved_by", ft.alias());
        // the second first_name collides with the first: it gets a prefixed alias
        assertEquals("users_approved_by_first_name", columns(second.config()).get(1).alias());
        // the fixture already joins users as users_created_by and users_approved_by: the same relationship again
        // falls back to the table's name, then to users_2
        OperationResult third = assertValid(ungrounded.add(Fixtures.orders(), users("orders.created_by")));
        assertEquals("users", joins(third.config()).get(3).alias());
        OperationResult fourth = assertValid(ungrounded.add(third.config(), users("orders.created_by")));
        assertEquals("users_2", joins(fourth.config()).get(4).alias());
    }

    @Test
    void selfJoinGetsADerivedAlias() {
        OperationResult r = assertValid(ungrounded.add(Fixtures.emptyOrders(),
                new JoinSpec("orders", "sales", null, null, "orders.parent_id", "orders.id", List.of())));
        assertEquals("orders_parent", joins(r.config()).get(0).alias());
        assertEquals("LEFT", joins(r.config()).get(0).joinType(), "LEFT by default");
        OperationResult qualified = assertValid(grounded.add(Fixtures.emptyOrders(),
                new JoinSpec("core.users", null, null, null, "orders.created_by", "users.id", List.of())));
        assertEquals("core", joins(qualified.config()).get(0).schema());
        assertEquals("users", joins(qualified.config()).get(0).table());
    }

    @Test
    void relationshipIsInferredFromTheCatalogueWhenOmitted() {
        OperationResult r = assertValid(grounded.add(Fixtures.emptyOrders(),
                new JoinSpec("customers", "sales", null, "inner", null, null, List.of(ColumnSpec.named("name")))));
        ForeignTable ft = joins(r.config()).get(0);
        assertEquals("orders.customer_id", ft.relationshipFrom());
        assertEquals("customers.id", ft.relationshipTo());
        assertEquals("INNER", ft.joinType());
        OperationResult ambiguous = grounded.add(Fixtures.emptyOrders(), new JoinSpec("users", "core", null, null, null, null, List.of()));
        assertHas(ambiguous.errors(), "join.relationship_from", "several foreign keys link orders and users");
        OperationResult ungroundedMissing = ungrounded.add(Fixtures.emptyOrders(), new JoinSpec("users", "core", null, null, null, null, List.of()));
        assertHas(ungroundedMissing.errors(), "join.relationship_from", "missing");
    }

    @Test
    void aJoinThroughAnotherJoin() {
        OperationResult r = assertValid(grounded.add(Fixtures.orders(), new JoinSpec("warehouses", "sales", null, "LEFT",
                "customers.warehouse_id", "warehouses.id", List.of(new ColumnSpec("name", null, null, null, "warehouse_name", null, null, null)))));
        assertEquals("customers.warehouse_id", joins(r.config()).get(3).relationshipFrom());
        assertEquals("warehouses", columns(r.config()).get(22).table());
        assertEquals(21, settings(r, "warehouse_name").order());
    }

    @Test
    void groundingRejectsUnknownTablesColumnsAndRelationships() {
        assertHas(grounded.add(Fixtures.orders(), new JoinSpec("user", "core", null, null, "orders.created_by", "user.id", List.of())).errors(),
                "join.table", "Did you mean users");
        assertHas(grounded.add(Fixtures.orders(), new JoinSpec("users", "cor", null, null, "orders.created_by", "users.id", List.of())).errors(),
                "join.table", "schema 'cor' does not exist");
        assertHas(grounded.add(Fixtures.orders(), users("orders.creator")).errors(), "join.relationship_from", "does not exist in sales.orders. Did you mean created_at, created_by?");
        OperationResult noFk = assertValid(grounded.add(Fixtures.orders(), new JoinSpec("users", "core", "users_by_notes", null,
                "orders.order_number", "users.email", List.of())));
        assertHas(noFk.warnings(), "join.relationship_to", "no foreign key links");
    }

    @Test
    void badJoinInput() {
        assertHas(ungrounded.add(Fixtures.orders(), new JoinSpec("users", "core", null, "CROSS", "orders.created_by", "users.id", List.of())).errors(),
                "join.join_type", "not one of INNER, LEFT, RIGHT, FULL");
        assertHas(ungrounded.add(Fixtures.orders(), new JoinSpec("users", "core", "customers", null, "orders.created_by", "users.id", List.of())).errors(),
                "join.alias", "already used");
        assertHas(ungrounded.add(Fixtures.orders(), users("invoices.created_by")).errors(), "join.relationship_from", "must name the base table");
        assertHas(ungrounded.add(Fixtures.orders(), new JoinSpec("users", "core", null, null, "orders.created_by", "people.id", List.of())).errors(),
                "join.relationship_to", "must name the joined table");
        assertHas(ungrounded.add(Fixtures.orders(), new JoinSpec("users; drop", "core", null, null, "orders.created_by", "users.id", List.of())).errors(),
                "join.table", "not a plain identifier");
        assertHas(ungrounded.add(Fixtures.orders(), new JoinSpec("users", "core", null, null, "orders.created_by", "users.id.x.y", List.of())).errors(),
                "join.relationship_to", "is not <table-or-alias>.<column>");
    }

    @Test
    void removingAJoinRemovesItsColumnsFiltersAndSorts() {
        TableConfig withFilter = assertValid(new FilterChange().add(Fixtures.orders(),
                FilterSpec.of("creator_last_name", "starts_with", TextNode.valueOf("Sm")))).config();
        withFilter = assertValid(new SortChange().apply(withFilter, SortChange.Operation.ADD, List.of(SortSpec.of("creator_first_name", "asc")))).config();
        OperationResult r = assertValid(ungrounded.remove(withFilter, new JoinSpec(null, null, "users_created_by", null, null, null, List.of())));
        assertEquals(2, joins(r.config()).size());
        assertFalse(r.config().visualSettings().columns().containsKey("creator_first_name"));
        assertFalse(r.config().visualSettings().columns().containsKey("creator_last_name"));
        assertEquals(List.of("join users_created_by removed", "creator_first_name removed (a column of users_created_by)",
                "creator_last_name removed (a column of users_created_by)", "filter creator_last_name starts_with removed",
                "sort on creator_first_name removed"), r.applied());
        // the remaining orders stay distinct; ordering is still all-or-nothing
        assertEquals(19, settings(r, "approver_first_name").order());
    }

    @Test
    void removingNeedsAnUnambiguousExistingJoinWithNoDependents() {
        assertHas(ungrounded.remove(Fixtures.orders(), new JoinSpec("users", null, null, null, null, null, List.of())).errors(),
                "join.table", "joined 2 times");
        assertValid(ungrounded.remove(Fixtures.orders(), new JoinSpec("customers", null, null, null, null, null, List.of())));
        assertHas(ungrounded.remove(Fixtures.orders(), new JoinSpec(null, null, "users_creatd_by", null, null, null, List.of())).errors(),
                "join.alias", "Did you mean users_created_by");
        TableConfig chained = assertValid(ungrounded.add(Fixtures.orders(), new JoinSpec("warehouses", "sales", null, null,
                "customers.warehouse_id", "warehouses.id", List.of()))).config();
        assertHas(ungrounded.remove(chained, new JoinSpec("customers", null, null, null, null, null, List.of())).errors(),
                "join.table", "join warehouses is joined through customers");
    }
}
