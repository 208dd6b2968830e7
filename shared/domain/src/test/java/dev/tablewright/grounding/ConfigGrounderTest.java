package dev.tablewright.grounding;

import dev.tablewright.codec.ConfigJson;
import dev.tablewright.config.JoinType;
import dev.tablewright.config.SortDirection;
import dev.tablewright.reference.FilterOperator;
import org.junit.jupiter.api.Test;

import dev.tablewright.schema.CatalogUnavailableException;
import dev.tablewright.schema.SchemaCatalog;
import dev.tablewright.schema.TableInfo;
import dev.tablewright.validation.ValidationError;
import dev.tablewright.validation.ValidationReport;

import java.util.List;
import java.util.Optional;

import static dev.tablewright.sql.SqlCompilerTest.CATALOG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the SQL compiler works from: a config whose every name was found in the catalogue. */
class ConfigGrounderTest {

    private static final String CONFIG = """
            {"data_source": [{"schema": "sales", "source": "orders",
              "select": {"columns": [{"name": "id"}, {"name": "first_name", "table": "creator"}],
                         "foreign_tables": [{"schema": "core", "table": "users", "alias": "creator", "join_type": "INNER",
                                             "relationship_from": "orders.created_by", "relationship_to": "creator.id"}]},
              "filters": [{"column": "id", "operator": "between", "value": [1, 9]}],
              "sort": [{"column": "first_name", "direction": "desc"}]}],
             "visual_settings": {"columns": {"id": {"type": "number"}, "first_name": {"type": "string"}}}}""";

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
                ConfigJson.readWritten(CONFIG.replace("first_name", "firstname")), CATALOG);
        assertNull(grounding.config(), "the compiler never sees a half-grounded config");
        assertEquals("data_source[0].select.columns[1].name", grounding.errors().get(0).field());
        assertTrue(grounding.errors().get(0).message().contains("first_name"), grounding.errors().get(0).message());
    }

    /** The config joined on orders.code = users.id, which no foreign key links. */
    private static final String NO_KEY = CONFIG.replace("orders.created_by", "orders.code");

    @Test
    void aJoinThatFollowsNoForeignKeyIsAnErrorForTheQueryAndAWarningForValidation() {
        ConfigGrounder.Grounding grounding = ConfigGrounder.ground(ConfigJson.readWritten(NO_KEY), CATALOG);
        assertNull(grounding.config());
        assertEquals("data_source[0].select.foreign_tables[0].relationship_from", grounding.errors().get(0).field());
        assertTrue(grounding.errors().get(0).message().contains("orders.created_by -> users.id"), grounding.errors().toString());

        ValidationReport checked = ConfigGrounder.check(ConfigJson.readWritten(NO_KEY), CATALOG);
        assertTrue(checked.valid(), checked.errors().toString());
        assertEquals("data_source[0].select.foreign_tables[0].relationship_from", checked.warnings().get(0).field());
        assertTrue(checked.warnings().get(0).message().contains("A preview runs only joins that follow a foreign key"));
    }

    @Test
    void validationAndTheQueryReportTheSameMissingNamesOnTheSameFields() {
        String wrong = CONFIG.replace("\"schema\": \"core\"", "\"schema\": \"cor\"").replace("{\"name\": \"id\"}", "{\"name\": \"idd\", \"alias\": \"id\"}");
        List<ValidationError> forQuery = ConfigGrounder.ground(ConfigJson.readWritten(wrong), CATALOG).errors();
        List<ValidationError> forValidation = ConfigGrounder.check(ConfigJson.readWritten(wrong), CATALOG).errors();
        assertEquals(forQuery, forValidation);
        assertEquals(List.of("data_source[0].select.foreign_tables[0].schema", "data_source[0].select.columns[0].name"),
                forValidation.stream().map(ValidationError::field).toList());
        assertTrue(forValidation.get(0).message().contains("Did you mean core"), forValidation.toString());
        assertTrue(forValidation.get(1).message().contains("Did you mean id"), forValidation.toString());
    }

    @Test
    void aVisualTypeTheDatabaseTypeCannotBeIsAnErrorForBoth() {
        String asDate = CONFIG.replace("\"id\": {\"type\": \"number\"}", "\"id\": {\"type\": \"date\", \"format\": \"yyyy-MM-dd\"}")
                .replace("\"operator\": \"between\", \"value\": [1, 9]", "\"operator\": \"is_null\"");
        ConfigGrounder.Grounding grounding = ConfigGrounder.ground(ConfigJson.readWritten(asDate), CATALOG);
        assertEquals("visual_settings.columns.id.type", grounding.errors().get(0).field(), grounding.errors().toString());
        assertEquals(grounding.errors(), ConfigGrounder.check(ConfigJson.readWritten(asDate), CATALOG).errors());
    }

    @Test
    void anUnreadableCatalogueIsUnavailableForBothUsesNeverAnInvalidConfig() {
        SchemaCatalog down = new SchemaCatalog() {
            @Override
            public List<String> schemas() {
                throw new CatalogUnavailableException("down", null);
            }

            @Override
            public List<TableInfo> tables(String schema) {
                throw new CatalogUnavailableException("down", null);
            }

            @Override
            public Optional<TableInfo> table(String schema, String table) {
                throw new CatalogUnavailableException("down", null);
            }
        };
        assertThrows(CatalogUnavailableException.class, () -> ConfigGrounder.ground(ConfigJson.readWritten(CONFIG), down));
        assertThrows(CatalogUnavailableException.class, () -> ConfigGrounder.check(ConfigJson.readWritten(CONFIG), down),
                "an outage is not an invalid config: the config API answers 503 and the tool unavailable");

        ValidationReport ungrounded = ConfigGrounder.check(ConfigJson.readWritten(CONFIG), null);
        assertEquals(List.of(new ValidationError("", CatalogLookup.UNGROUNDED)), ungrounded.warnings());
    }
}
