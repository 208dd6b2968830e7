package dev.tablewright.operations;

import dev.tablewright.codec.ConfigJson;

import dev.tablewright.config.ColumnSettings;
import dev.tablewright.config.SelectColumn;
import dev.tablewright.config.TableConfig;
import dev.tablewright.fixtures.FixtureCatalog;
import dev.tablewright.fixtures.Fixtures;
import dev.tablewright.validation.ConfigValidator;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.tablewright.fixtures.Errors.assertHas;
import static org.junit.jupiter.api.Assertions.*;

class ColumnChangeTest {

    private final ColumnChange ungrounded = new ColumnChange();
    private final ColumnChange grounded = new ColumnChange(new FixtureCatalog());

    static OperationResult assertValid(OperationResult r) {
        assertTrue(r.valid(), () -> "errors: " + r.errors());
        assertTrue(ConfigValidator.validate(r.config()).valid());
        return r;
    }

    static ColumnSettings settings(OperationResult r, String key) {
        return r.config().visualSettings().columns().get(key);
    }

    static List<SelectColumn> columns(TableConfig c) {
        return c.dataSource().get(0).select().columns();
    }

    @Test
    void theExampleAddsToBothListsWithTypeFormatAndNextOrder() {
        // {"name": "column_name", "source_table": ..., "pg_type": "timestamp without time zone", "alias": "Created At"}
        OperationResult r = assertValid(ungrounded.add(Fixtures.orders(), List.of(
                new ColumnSpec("shipped_at", "orders", "sales", "timestamp without time zone", "Shipped At", false, null, null))));
        SelectColumn added = columns(r.config()).get(22);
        assertEquals("shipped_at", added.name());
        assertNull(added.table(), "a base-table column has no table");
        assertNull(added.alias(), "'Shipped At' becomes the header; the key is the name itself");
        ColumnSettings cs = settings(r, "shipped_at");
        assertEquals("datetime", cs.type());
        assertEquals("yyyy-MM-dd HH:mm", cs.format(), "datetime format injected");
        assertEquals(21, cs.order(), "next order after 20");
        assertEquals("Shipped At", cs.header());
        assertTrue(r.applied().get(0).contains("shipped_at added to select.columns and visual_settings.columns"), r.applied()::toString);
        assertHas(r.warnings(), "", "no schema catalogue");
    }

    @Test
    void noOrderWhenVisibleColumnsAreUnordered() {
        OperationResult r = assertValid(ungrounded.add(Fixtures.emptyOrders(), List.of(
                new ColumnSpec("total", null, null, "numeric(12,2)", null, null, null, null),
                new ColumnSpec("due_date", null, null, "date", null, null, null, null))));
        assertNull(settings(r, "total").order());
        assertEquals("number", settings(r, "total").type());
        assertEquals("yyyy-MM-dd", settings(r, "due_date").format());
        assertEquals("Due Date", settings(r, "due_date").header());
    }

    @Test
    void hiddenColumnsGetNoOrder() {
        OperationResult r = assertValid(ungrounded.add(Fixtures.orders(), List.of(
                new ColumnSpec("created_by", null, null, "integer", null, true, null, null))));
        assertTrue(settings(r, "created_by").isHidden());
        assertNull(settings(r, "created_by").order());
    }

    @Test
    void groundedTakesTheTypeFromTheCatalogue() {
        OperationResult r = assertValid(grounded.add(Fixtures.orders(), List.of(ColumnSpec.named("shipped_at"), ColumnSpec.named("discount"))));
        assertEquals("datetime", settings(r, "shipped_at").type());
        assertEquals("number", settings(r, "discount").type());
        assertEquals(22, settings(r, "discount").order());
        assertTrue(r.warnings().stream().noneMatch(w -> w.message().contains("catalogue")), r.warnings()::toString);
    }

    @Test
    void groundedRejectsUnknownNamesNamingTheClosest() {
        OperationResult r = grounded.add(Fixtures.orders(), List.of(ColumnSpec.named("shiped_at")));
        assertFalse(r.valid());
        assertNull(r.config());
        assertHas(r.errors(), "columns[0].name", "does not exist in sales.orders. Did you mean shipped_at");
        OperationResult joined = grounded.add(Fixtures.orders(), List.of(
                new ColumnSpec("emial", "users_created_by", null, null, null, null, null, null)));
        assertHas(joined.errors(), "columns[0].name", "does not exist in core.users. Did you mean email");
    }

    @Test
    void joinedColumnsResolveByAliasOrByTableJoinedOnce() {
        OperationResult r = assertValid(grounded.add(Fixtures.orders(), List.of(
                new ColumnSpec("created_at", "customers", null, null, "customer_since", null, null, null),
                new ColumnSpec("is_active", "users_created_by", null, null, null, null, null, null))));
        SelectColumn since = columns(r.config()).get(22);
        assertEquals("customers", since.table());
        assertEquals("datetime", settings(r, "customer_since").type());
        assertEquals("boolean", settings(r, "is_active").type());
        OperationResult ambiguous = grounded.add(Fixtures.orders(), List.of(new ColumnSpec("is_active", "users", null, null, null, null, null, null)));
        assertHas(ambiguous.errors(), "columns[0].source_table", "joined 2 times (as users_created_by, users_approved_by)");
        OperationResult notJoined = ungrounded.add(Fixtures.orders(), List.of(new ColumnSpec("city", "warehouses", null, "text", null, null, null, null)));
        assertHas(notJoined.errors(), "columns[0].source_table", "join it first with apply_join_change");
    }

    @Test
    void aJoinedColumnWhoseNameIsTakenGetsAPrefixedAlias() {
        OperationResult r = assertValid(grounded.add(Fixtures.orders(), List.of(new ColumnSpec("id", "customers", null, null, null, null, null, null))));
        assertEquals("customers_id", columns(r.config()).get(22).alias());
        assertTrue(r.applied().get(0).contains("aliased as customers_id"));
        OperationResult explicit = grounded.add(Fixtures.orders(), List.of(new ColumnSpec("id", "customers", null, null, "total", null, null, null)));
        assertHas(explicit.errors(), "columns[0].alias", "already used");
    }

    @Test
    void addingAHiddenColumnAgainVisibleUnhidesIt() {
        OperationResult r = assertValid(ungrounded.add(Fixtures.orders(), List.of(ColumnSpec.named("metadata"))));
        assertFalse(settings(r, "metadata").isHidden());
        assertEquals(21, settings(r, "metadata").order());
        assertTrue(r.applied().get(0).contains("now visible"));
        OperationResult same = assertValid(ungrounded.add(Fixtures.orders(), List.of(ColumnSpec.named("total"))));
        assertHas(same.warnings(), "columns[0]", "already selected");
    }

    @Test
    void removeTakesFromBothListsWithFiltersAndSorts() {
        OperationResult r = assertValid(ungrounded.remove(Fixtures.orders(), List.of(ColumnSpec.named("total"))));
        assertTrue(columns(r.config()).stream().noneMatch(c -> c.name().equals("total")));
        assertFalse(r.config().visualSettings().columns().containsKey("total"));
        assertTrue(r.applied().contains("filter total gte removed"), r.applied()::toString);
        assertTrue(r.applied().contains("sort on total removed"), r.applied()::toString);
        // by alias, and by name when it is selected once
        assertValid(ungrounded.remove(Fixtures.orders(), List.of(ColumnSpec.named("creator_last_name"))));
        OperationResult byName = assertValid(ungrounded.remove(Fixtures.orders(), List.of(ColumnSpec.named("last_name"))));
        assertFalse(byName.config().visualSettings().columns().containsKey("creator_last_name"));
        assertHas(ungrounded.remove(Fixtures.orders(), List.of(ColumnSpec.named("first_name"))).errors(),
                "columns[0].name", "selected 2 times");
        assertHas(ungrounded.remove(Fixtures.orders(), List.of(ColumnSpec.named("totl"))).errors(),
                "columns[0].name", "not selected. Did you mean total");
    }

    @Test
    void badNamesAreFieldLevelErrors() {
        OperationResult r = ungrounded.add(Fixtures.orders(), List.of(
                new ColumnSpec("a".repeat(64), null, null, "text", null, null, null, null)));
        assertHas(r.errors(), "columns[0].name", "at most 63");
        assertHas(ungrounded.add(Fixtures.orders(), List.of(ColumnSpec.named("x\"; drop table orders; --"))).errors(),
                "columns[0].name", "not a plain identifier");
        assertHas(ungrounded.add(Fixtures.orders(), List.of(ColumnSpec.named("x".repeat(5 * 1024 * 1024)))).errors(),
                "columns[0].name", "5242880 characters long");
        assertHas(ungrounded.add(Fixtures.orders(), List.of()).errors(), "columns", "empty");
        assertHas(ungrounded.add(Fixtures.orders(), List.of(new ColumnSpec("notes", null, null, null, "!!!", null, null, null))).errors(),
                "columns[0].alias", "not a plain identifier");
    }

    @Test
    void anInvalidInputConfigIsNeverReportedValid() {
        TableConfig broken = new ColumnChange().add(Fixtures.orders(), List.of(
                new ColumnSpec("shipped_at", null, null, "timestamptz", null, null, null, null))).config();
        // drop the datetime format: the next operation must not report the config valid
        var cols = new java.util.LinkedHashMap<>(broken.visualSettings().columns());
        ColumnSettings cs = cols.get("shipped_at");
        cols.put("shipped_at", new ColumnSettings(cs.header(), cs.type(), null, cs.order(), cs.hidden(), cs.extra()));
        TableConfig invalid = new TableConfig(broken.id(), broken.name(), broken.description(), broken.version(), broken.dataSource(),
                new dev.tablewright.config.VisualSettings(25, cols, null), broken.extra());
        OperationResult r = ungrounded.add(invalid, List.of(new ColumnSpec("discount", null, null, "real", null, null, null, null)));
        assertFalse(r.valid());
        assertHas(r.errors(), "visual_settings.columns.shipped_at.format", "needs a format");
    }

    @Test
    void unknownFieldsSurviveAnOperation() {
        OperationResult r = assertValid(ungrounded.add(Fixtures.orders(), List.of(new ColumnSpec("discount", null, null, "real", null, null, null, null))));
        var json = dev.tablewright.codec.ConfigJson.write(r.config());
        assertEquals("kept by the client: unknown fields survive every tool", json.get("owner_note").asText());
        assertEquals(180, json.at("/data_source/0/select/columns/21/ui_width").asInt());
        assertEquals("compact", json.at("/visual_settings/density").asText());
        assertEquals("second join of users", json.at("/data_source/0/select/foreign_tables/2/x-note").asText());
    }

    @Test
    void updateChangesDisplaySettingsKeepingOrderingRules() {
        ColumnChange cc = ungrounded;
        OperationResult hide = assertValid(cc.apply(Fixtures.orders(), ColumnChange.Operation.UPDATE,
                List.of(new ColumnSpec("notes", null, null, null, null, true, null, null))));
        assertTrue(settings(hide, "notes").isHidden());
        assertNull(settings(hide, "notes").order());
        assertEquals(List.of("notes updated: hidden"), hide.applied());
        OperationResult show = assertValid(cc.apply(Fixtures.orders(), ColumnChange.Operation.UPDATE,
                List.of(new ColumnSpec("customer_id", null, null, null, null, false, "Customer #", null))));
        assertEquals(21, settings(show, "customer_id").order());
        assertEquals("Customer #", settings(show, "customer_id").header());
        OperationResult retype = assertValid(cc.apply(Fixtures.orders(), ColumnChange.Operation.UPDATE,
                List.of(new ColumnSpec("notes", null, null, "date", null, null, null, null))));
        assertEquals("date", settings(retype, "notes").type());
        assertEquals("yyyy-MM-dd", settings(retype, "notes").format());
        OperationResult format = assertValid(cc.apply(Fixtures.orders(), ColumnChange.Operation.UPDATE,
                List.of(new ColumnSpec("creator_first_name", null, null, null, null, null, null, "upper"))));
        assertHas(format.warnings(), "visual_settings.columns.creator_first_name.format", "custom pattern");
        OperationResult clearDateFormat = cc.apply(Fixtures.orders(), ColumnChange.Operation.UPDATE,
                List.of(new ColumnSpec("due_date", null, null, null, null, null, null, "")));
        assertHas(clearDateFormat.errors(), "visual_settings.columns.due_date.format", "needs a format");
        assertHas(cc.apply(Fixtures.orders(), ColumnChange.Operation.UPDATE, List.of(ColumnSpec.named("nope"))).errors(),
                "columns[0].name", "not selected");
        assertHas(cc.apply(Fixtures.orders(), ColumnChange.Operation.UPDATE, List.of(ColumnSpec.named("total"))).warnings(),
                "columns[0]", "nothing to change");
    }
}
