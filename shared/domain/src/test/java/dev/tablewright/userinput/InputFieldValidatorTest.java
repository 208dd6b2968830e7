package dev.tablewright.userinput;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.json.Json;
import dev.tablewright.toolcontract.FieldType;
import dev.tablewright.toolcontract.InputField;
import dev.tablewright.toolcontract.ShowWhen;
import dev.tablewright.validation.ValidationError;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class InputFieldValidatorTest {

    static InputField field(String name, FieldType type, boolean required) {
        return new InputField(name, name, null, type, required, null, null, null, null, null, null);
    }

    static final List<InputField> FORM = List.of(
            new InputField("realm_id", "Company ID", null, FieldType.TEXT, true, "^[0-9]{10,20}$", null, null, null, null, null),
            new InputField("port", "Port", null, FieldType.NUMBER, false, null, BigDecimal.ONE, BigDecimal.valueOf(65535), null, null, null),
            new InputField("database", "Database", null, FieldType.SELECT, true, null, null, null, null, List.of("production", "staging"), null),
            field("use_ssh", FieldType.BOOLEAN, false),
            new InputField("ssh_key", "SSH key", null, FieldType.SECRET, true, null, null, null, null, null, new ShowWhen("use_ssh", "true")),
            field("since", FieldType.DATE, false));

    static JsonNode json(String text) {
        try {
            return Json.parse(text);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    static List<String> fields(List<ValidationError> errors) {
        return errors.stream().map(ValidationError::field).toList();
    }

    @Test
    void acceptsAndNormalisesGoodValues() {
        var r = InputFieldValidator.validate(FORM, json("""
                {"realm_id": "9130346988354456", "port": 22, "database": "staging", "use_ssh": true, "ssh_key": "k", "since": "2025-02-28"}"""));
        assertTrue(r.valid(), r.errors().toString());
        assertEquals(Map.of("realm_id", "9130346988354456", "port", "22", "database", "staging", "use_ssh", "true",
                "ssh_key", "k", "since", "2025-02-28"), r.values());
    }

    @Test
    void aNumberFieldTakesAJsonNumberNotTextThatLooksLikeOne() {
        var r = InputFieldValidator.validate(FORM, json("{\"realm_id\": \"9130346988354456\", \"port\": \"22\", \"database\": \"staging\", "
                + "\"use_ssh\": false, \"since\": \"2025-02-28\"}"));
        assertEquals(List.of("values.port"), fields(r.errors()));
        assertTrue(r.errors().getFirst().message().contains("expected a number"), r.errors().toString());
    }

    @Test
    void namesEveryBadFieldAtOnce() {
        var r = InputFieldValidator.validate(FORM, json("""
                {"realm_id": "12ab", "port": 70000, "database": "prod", "use_ssh": "yes", "since": "2025-02-30", "colour": "red"}"""));
        assertEquals(List.of("values.colour", "values.realm_id", "values.port", "values.database", "values.use_ssh", "values.since"),
                fields(r.errors()));
        assertTrue(r.values().isEmpty(), "nothing is accepted from a bad submit");
    }

    @Test
    void conditionalFieldIsRequiredOnlyWhenShown() {
        var hidden = InputFieldValidator.validate(FORM, json("{\"realm_id\": \"1234567890\", \"database\": \"staging\", \"use_ssh\": false, \"ssh_key\": \"dropped\"}"));
        assertTrue(hidden.valid(), hidden.errors().toString());
        assertTrue(!hidden.values().containsKey("ssh_key"), "a hidden field's value is dropped");
        var shown = InputFieldValidator.validate(FORM, json("{\"realm_id\": \"1234567890\", \"database\": \"staging\", \"use_ssh\": true}"));
        assertEquals(List.of("values.ssh_key"), fields(shown.errors()));
    }

    @Test
    void wrongTypesAreNamed() {
        var r = InputFieldValidator.validate(FORM, json("{\"realm_id\": 1234567890, \"port\": true, \"database\": [\"staging\"], \"use_ssh\": 1, \"since\": 20250101}"));
        assertEquals(List.of("values.realm_id", "values.port", "values.database", "values.use_ssh", "values.since"), fields(r.errors()));
        assertEquals(List.of("values"), fields(InputFieldValidator.validate(FORM, json("[1]")).errors()));
    }

    @Test
    void requiredMeansPresentAndNonEmpty() {
        var r = InputFieldValidator.validate(FORM, json("{\"realm_id\": \"\", \"database\": null}"));
        assertEquals(List.of("values.realm_id", "values.database"), fields(r.errors()));
    }

    @Test
    void hugeValuesAndPathologicalPatternsAreRejectedQuickly() {
        var form = List.of(new InputField("v", null, null, FieldType.TEXT, true, "^(.*a){12}$", null, null, null, null, null));
        var r = InputFieldValidator.validate(form, json("{\"v\": \"" + "a".repeat(3000) + "x\"}"));
        assertEquals(List.of("values.v"), fields(r.errors()));
        var big = InputFieldValidator.validate(List.of(field("t", FieldType.TEXT, true)), json("{\"t\": \"" + "x".repeat(5000) + "\"}"));
        assertEquals(List.of("values.t"), fields(big.errors()));
    }

    @Test
    void definitionsAreChecked() {
        var errors = InputFieldValidator.checkDefinition(List.of(
                new InputField("1bad", null, null, FieldType.TEXT, true, "(", null, null, null, null, null),
                new InputField("s", null, null, FieldType.SELECT, true, null, null, null, null, List.of(), null),
                new InputField("s", null, null, FieldType.NUMBER, true, null, BigDecimal.TEN, BigDecimal.ONE, null, null, null),
                new InputField("c", null, null, FieldType.TEXT, false, null, null, null, null, null, new ShowWhen("c", "x")),
                new InputField("t", null, null, null, false, null, null, null, null, null, null)), "fields");
        assertEquals(List.of("fields[0].name", "fields[0].validation", "fields[1].options", "fields[2].name", "fields[2].max",
                "fields[3].showWhen.field", "fields[4].type"), fields(errors));
        assertEquals(List.of("fields"), fields(InputFieldValidator.checkDefinition(List.of(), "fields")));
        assertTrue(InputFieldValidator.checkDefinition(FORM, "fields").isEmpty());
    }
}
