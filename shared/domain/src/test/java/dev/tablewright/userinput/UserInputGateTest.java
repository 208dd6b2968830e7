package dev.tablewright.userinput;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.json.Json;
import dev.tablewright.toolcontract.InputField;
import dev.tablewright.toolcontract.ToolDefinition;
import dev.tablewright.toolcontract.ToolInvocation;
import dev.tablewright.toolcontract.ToolOutcome;
import dev.tablewright.toolcontract.UserInputRequirement;
import dev.tablewright.toolcontract.ValueScope;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

class UserInputGateTest {

    static final ToolDefinition QUICKBOOKS = new ToolDefinition("quickbooks_report", "P&L report", Json.object(),
            new UserInputRequirement("QuickBooks API requests require your Company ID", InputFieldValidatorTest.FORM, true, null),
            null, null);

    final UserInputGate gate = UserInputGate.INSTANCE;

    static ObjectNode args(String json) {
        return (ObjectNode) InputFieldValidatorTest.json(json);
    }

    static SavedValue saved(String name, String value, ValueScope scope) {
        return new SavedValue(name, value, false, scope, "t", "call", Instant.EPOCH, null);
    }

    static List<String> names(UserInputGate.Decision d) {
        return assertInstanceOf(UserInputGate.AskUser.class, d).request().fields().stream().map(InputField::name).toList();
    }

    @Test
    void asksForEverythingUnknownOnAFreshConversation() {
        var d = gate.decide(QUICKBOOKS, Json.object(), SavedValues.NONE);
        // ssh_key is conditional on use_ssh, which is being asked: it rides along for the client to show when chosen
        assertEquals(List.of("realm_id", "port", "database", "use_ssh", "ssh_key", "since"), names(d));
        var request = ((UserInputGate.AskUser) d).request();
        assertEquals("QuickBooks API requests require your Company ID", request.reason());
        assertTrue(request.saveForSession());
    }

    @Test
    void asksOnlyForWhatIsMissing() {
        var saved = new SavedValues(List.of(saved("realm_id", "9130346988354456", ValueScope.CONVERSATION)), List.of());
        var d = gate.decide(QUICKBOOKS, args("{\"use_ssh\": false}"), saved);
        assertEquals(List.of("port", "database", "since"), names(d));
    }

    @Test
    void proceedsWithKnownValuesMergedAndTyped() {
        var saved = new SavedValues(
                List.of(saved("realm_id", "9130346988354456", ValueScope.CONVERSATION), saved("port", "5432", ValueScope.CONVERSATION)),
                List.of(saved("database", "staging", ValueScope.USER), saved("use_ssh", "false", ValueScope.USER)));
        var d = gate.decide(QUICKBOOKS, args("{\"period\": \"Q1\"}"), saved);
        ObjectNode merged = assertInstanceOf(UserInputGate.Proceed.class, d).arguments();
        assertEquals("Q1", merged.get("period").asText());
        assertEquals("9130346988354456", merged.get("realm_id").asText());
        assertTrue(merged.get("port").isNumber());
        assertEquals(5432, merged.get("port").intValue());
        assertTrue(merged.get("use_ssh").isBoolean());
        assertEquals("staging", merged.get("database").asText());
    }

    @Test
    void conversationValuesWinOverUserValuesAndArgumentsWinOverBoth() {
        var saved = new SavedValues(List.of(saved("database", "staging", ValueScope.CONVERSATION)),
                List.of(saved("database", "production", ValueScope.USER), saved("realm_id", "1111111111", ValueScope.USER)));
        var merged = ((UserInputGate.Proceed) gate.decide(QUICKBOOKS, Json.object(), saved)).arguments();
        assertEquals("staging", merged.get("database").asText());
        var explicit = ((UserInputGate.Proceed) gate.decide(QUICKBOOKS, args("{\"database\": \"production\"}"), saved)).arguments();
        assertEquals("production", explicit.get("database").asText());
    }

    @Test
    void invalidArgumentsOrStaleSavedValuesCountAsUnknown() {
        var saved = new SavedValues(List.of(saved("realm_id", "not-a-number", ValueScope.CONVERSATION)), List.of());
        var d = gate.decide(QUICKBOOKS, args("{\"database\": \"made_up_db\", \"use_ssh\": false}"), saved);
        assertEquals(List.of("realm_id", "port", "database", "since"), names(d));
    }

    @Test
    void aShownConditionalFieldIsAskedAndAHiddenOneIsNot() {
        var base = Map.of("realm_id", "9130346988354456", "database", "staging");
        var shown = new java.util.HashMap<>(base);
        shown.put("use_ssh", "true");
        assertEquals(List.of("port", "ssh_key", "since"), names(gate.decide(QUICKBOOKS, Json.object(), shown)));
        var hidden = new java.util.HashMap<>(base);
        hidden.put("use_ssh", "false");
        assertInstanceOf(UserInputGate.Proceed.class, gate.decide(QUICKBOOKS, Json.object(), hidden));
    }

    @Test
    void toolsWithoutRequirementsAlwaysProceed() {
        var plain = new ToolDefinition("plain", "", Json.object(), null, null, null);
        assertInstanceOf(UserInputGate.Proceed.class, gate.decide(plain, args("{\"a\": 1}"), SavedValues.NONE));
    }

    @Test
    void asAnExecutionGateItAnswersNeedsInputOrAdmitsWithMergedArguments() {
        var missing = new ToolInvocation("quickbooks_report", "call_1", "c1", "u1", Json.object(), Map.of());
        var outcome = gate.check(QUICKBOOKS, missing);
        assertTrue(outcome.isPresent());
        assertEquals(ToolOutcome.Status.NEEDS_INPUT, outcome.get().status());

        var known = new ToolInvocation("quickbooks_report", "call_2", "c1", "u1", Json.object(),
                Map.of("realm_id", "9130346988354456", "database", "staging", "use_ssh", "false"));
        assertTrue(gate.check(QUICKBOOKS, known).isEmpty());
        assertEquals("staging", gate.admit(QUICKBOOKS, known).arguments().get("database").asText());
    }
}
