package dev.tablewright.sql;

import dev.tablewright.codec.ConfigJson;
import dev.tablewright.config.JoinType;
import dev.tablewright.config.SortDirection;
import dev.tablewright.reference.FilterOperator;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.tablewright.sql.SqlCompilerTest.CATALOG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the SQL compiler works from: a config whose every name was found in the catalogue. */
class ConfigGrounderTest {

    private static final String CONFIG = """
            {"data_source": [{"schema": "sales", "source": "orders",
              "select": {"columns": [{"name": "id"}, {"name": "first_name", "table": "creator"}],
                         "foreign_tables": [{"schema": "core", "table": "users", "alias": "creator", "join_type": "INNER",
                                             "relationship_from": "orders.created_by", "relationship_to": "creator.id"}]},
              "filters": [{"column": "id", "operator": "between", "value": [1, 9]}],
              "sort": [{"column": "first_name", "direction": "desc"}]}]}""";

    @Test
    void aConfigIsGroundedIntoTablesJoinsColumnsFiltersAndSorts() {
        ConfigGrounder.Grounding grounding = ConfigGrounder.ground(ConfigJson.readWritten(CONFIG), CATALOG);
        assertEquals(List.of(), grounding.errors());
        GroundedConfig grounded = grounding.config();
        assertEquals("sales.orders", grounded.base().table().qualifiedName());
        GroundedConfig.Join join = grounded.joins().get(0);
        assertEquals(JoinType.INNER, join.type());
        assertEquals("creator", join.joined().alias());
        assertEquals(List.of(new GroundedConfig.KeyPair("created_by", "id")), join.keyPairs(), "the foreign key's columns");
        assertEquals(List.of("id", "first_name"), grounded.columns().stream().map(ResultColumn::key).toList());
        assertEquals("creator", grounded.columns().get(1).tableAlias());
        GroundedConfig.FilterOn filter = grounded.filters().get(0);
        assertEquals(FilterOperator.BETWEEN, filter.operator());
        assertEquals(List.of("1", "9"), filter.values());
        assertEquals("data_source[0].filters[0]", filter.field());
        assertEquals(SortDirection.DESC, grounded.sorts().get(0).direction());
    }

    @Test
    void anUngroundedNameIsAnErrorOnItsFieldAndNothingIsGrounded() {
        ConfigGrounder.Grounding grounding = ConfigGrounder.ground(
                ConfigJson.readWritten(CONFIG.replace("\"first_name\", \"table\"", "\"firstname\", \"table\"")), CATALOG);
        assertNull(grounding.config(), "the compiler never sees a half-grounded config");
        assertEquals("data_source[0].select.columns[1].name", grounding.errors().get(0).field());
        assertTrue(grounding.errors().get(0).message().contains("first_name"), grounding.errors().get(0).message());
    }
}
