package dev.tablewright.config;

import dev.tablewright.codec.ConfigJson;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.codec.TableBuilderStateJson;
import dev.tablewright.fixtures.Fixtures;
import dev.tablewright.json.Json;
import dev.tablewright.validation.ConfigValidator;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

class BuilderStateMappingTest {

    @Test
    void configToStateAndBackKeepsEverything() {
        TableConfig config = Fixtures.orders();
        TableBuilderState state = BuilderStateMapping.toState(config);
        assertEquals(new TableBuilderState.BaseTable("sales", "orders"), state.baseTable());
        assertEquals(3, state.dataSources().size());
        assertEquals(new TableBuilderState.JoinedTable("core", "users", "users_approved_by"), state.dataSources().get(2));
        assertEquals(new TableBuilderState.Join("users_approved_by", "LEFT", "orders.approved_by", "users.id"), state.joins().get(2));
        assertEquals(22, state.columns().size());
        TableBuilderState.Column created = state.columns().get(5);
        assertEquals("datetime", created.type());
        assertEquals("yyyy-MM-dd HH:mm", created.format());
        assertEquals(6, created.order());
        assertEquals("creator_first_name", state.columns().get(18).resultKey());
        assertEquals(5, state.filters().size());
        assertEquals(new TableBuilderState.SortRule("created_at", "desc"), state.sortBy().get(0));

        TableConfig back = BuilderStateMapping.toConfig(state, config);
        assertEquals(ConfigJson.write(config), ConfigJson.write(back), "with the previous config, nothing is lost");
        TableConfig bare = BuilderStateMapping.toConfig(state);
        assertTrue(ConfigValidator.validate(bare).valid(), () -> ConfigValidator.validate(bare).errors().toString());
        assertNull(bare.id());
        assertEquals(state, BuilderStateMapping.toState(bare), "state → config → state is the identity");
    }

    @Test
    void stateReadsFromTheChatContextJson() throws Exception {
        JsonNode json = Json.parse("""
                {"baseTable": {"schema": "sales", "table": "orders"},
                 "dataSources": [{"schema": "core", "table": "users", "alias": "users_created_by"}],
                 "joins": [{"alias": "users_created_by", "joinType": "LEFT", "relationshipFrom": "orders.created_by", "relationshipTo": "users.id"}],
                 "columns": [{"column": "id", "type": "number", "header": "ID"},
                             {"column": "first_name", "table": "users_created_by", "alias": "creator", "type": "string"}],
                 "filters": [{"column": "id", "operator": "gt", "value": 10}],
                 "sortBy": [{"column": "id", "direction": "desc"}],
                 "uiOnly": true}
                """);
        TableBuilderState state = TableBuilderStateJson.read(json);
        TableConfig config = BuilderStateMapping.toConfig(state);
        assertTrue(ConfigValidator.validate(config).valid(), () -> ConfigValidator.validate(config).errors().toString());
        assertEquals("users_created_by", config.dataSource().get(0).select().foreignTables().get(0).alias());
        assertEquals("string", config.visualSettings().columns().get("creator").type());
        assertEquals(10, config.dataSource().get(0).filters().get(0).value().asInt());
        assertEquals(state, TableBuilderStateJson.read(Json.tree(state)), "state JSON round-trips");
    }

    @Test
    void aStateWithAValueOfTheWrongTypeIsUnreadableNamingIt() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> TableBuilderStateJson.read(Json.parse("""
                {"baseTable": {"schema": "sales", "table": "orders"}, "columns": [{"column": "id"}, {"column": "total", "order": "first"}]}""")));
        assertTrue(e.getMessage().contains("columns[1].order: expected an integer, got a string"), e.getMessage());
    }

    @Test
    void emptyConfigGivesAnEmptyState() {
        TableBuilderState s = BuilderStateMapping.toState(null);
        assertNull(s.baseTable());
        assertTrue(s.columns().isEmpty());
        assertFalse(ConfigValidator.validate(BuilderStateMapping.toConfig(s)).valid());
    }
}
