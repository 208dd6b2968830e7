package dev.tablewright.agui;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.toolcontract.FieldType;
import dev.tablewright.toolcontract.InputField;
import dev.tablewright.toolcontract.ShowWhen;
import dev.tablewright.toolcontract.UserInputRequirement;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

class InterruptsTest {

    @Test
    void aFormIsAJsonSchemaWithItsTypesAndASecretIsWriteOnly() {
        UserInputRequirement form = new UserInputRequirement("Connect to the warehouse database.", List.of(
                new InputField("database", "Database", null, FieldType.SELECT, true, null, null, null, null, List.of("production", "staging"), null),
                new InputField("password", "Password", "never stored in the conversation", FieldType.SECRET, true, "[^ ]{8,}", null, null, null, null, null),
                new InputField("rows", null, null, FieldType.NUMBER, false, null, BigDecimal.ONE, BigDecimal.TEN, null, null, null),
                new InputField("since", null, null, FieldType.DATE, false, null, null, null, "2026-01-01", null, null),
                new InputField("replica", null, null, FieldType.BOOLEAN, true, null, null, null, null, null, new ShowWhen("database", "production"))),
                false, null);
        AgUiEvent.Interrupt interrupt = Interrupts.inputRequired("req_1", "c1", "search", form, Instant.parse("2026-12-01T10:00:00Z"));
        assertEquals("input_required", interrupt.reason());
        assertEquals("Connect to the warehouse database.", interrupt.message());
        JsonNode schema = interrupt.json().path("responseSchema");
        JsonNode p = schema.path("properties");
        assertEquals("[\"production\",\"staging\"]", p.path("database").path("enum").toString());
        assertEquals(true, p.path("password").path("writeOnly").asBoolean());
        assertEquals("[^ ]{8,}", p.path("password").path("pattern").asText());
        assertEquals(10, p.path("rows").path("maximum").asInt());
        assertEquals("date", p.path("since").path("format").asText());
        assertEquals("boolean", p.path("replica").path("type").asText());
        assertEquals("[\"database\",\"password\"]", schema.path("required").toString(), "a conditional field is required only when shown");
        assertEquals("2026-12-01T10:00:00Z", interrupt.json().path("expiresAt").asText());
        assertFalse(interrupt.json().toString().contains("null"), "optional members are left out, never null");
    }
}
