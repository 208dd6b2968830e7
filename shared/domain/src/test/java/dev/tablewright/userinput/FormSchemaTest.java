package dev.tablewright.userinput;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.toolcontract.FieldType;
import dev.tablewright.toolcontract.InputField;
import dev.tablewright.toolcontract.ShowWhen;
import dev.tablewright.toolcontract.UserInputRequirement;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class FormSchemaTest {

    private static final UserInputRequirement FORM = new UserInputRequirement("Connect to the warehouse database.", List.of(
            new InputField("database", "Database", null, FieldType.SELECT, true, null, null, null, null, List.of("production", "staging"), null),
            new InputField("schema", null, "the schema to read", FieldType.TEXT, true, "[a-z_]+", null, null, "public", null, null),
            new InputField("rows", null, null, FieldType.NUMBER, false, null, BigDecimal.ONE, BigDecimal.TEN, null, null, null),
            new InputField("replica", null, null, FieldType.BOOLEAN, true, null, null, null, null, null, new ShowWhen("database", "production"))),
            false, null);

    @Test
    void theWholeFormKeepsPatternsExamplesAndConditionsAndRequiresAConditionalFieldOnlyWhenShown() {
        JsonNode schema = FormSchema.of(FORM);
        assertEquals("{\"type\":\"string\",\"pattern\":\"[a-z_]+\",\"description\":\"the schema to read\",\"examples\":[\"public\"]}",
                schema.path("properties").path("schema").toString());
        assertEquals("{\"field\":\"database\",\"equals\":\"production\"}", schema.path("properties").path("replica").path("x-showWhen").toString());
        assertEquals("[\"database\",\"schema\"]", schema.path("required").toString());
    }

    @Test
    void theFlatFormHasOnlyWhatAnElicitationAllows() {
        JsonNode schema = FormSchema.flat(FORM);
        assertEquals("{\"type\":\"object\",\"properties\":{"
                + "\"database\":{\"type\":\"string\",\"enum\":[\"production\",\"staging\"],\"title\":\"Database\"},"
                + "\"schema\":{\"type\":\"string\",\"description\":\"the schema to read\"},"
                + "\"rows\":{\"type\":\"number\",\"minimum\":1,\"maximum\":10},"
                + "\"replica\":{\"type\":\"boolean\"}},"
                + "\"required\":[\"database\",\"schema\",\"replica\"]}", schema.toString());
    }
}
