package dev.tablewright.toolassembly;

import dev.tablewright.agent.toolcall.UserInputLifecycle;
import dev.tablewright.agent.toolcall.UserInputPort;
import dev.tablewright.catalogue.DataSources;
import dev.tablewright.toolcontract.ToolDefinition;
import dev.tablewright.toolcontract.ToolRegistry;
import dev.tablewright.userinput.InputRequestService;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The tools' wiring from an environment, as the chat's assembly and the MCP function take it; no AWS call is made. */
class ToolAssemblyTest {

    /** A DynamoDB endpoint nothing listens on: the clients are built, never used. */
    static final String NOWHERE = "http://127.0.0.1:9";

    @Test
    void theRegistryIsTheCataloguesForTheConfiguredDataSources() {
        ToolAssembly tools = ToolAssembly.fromEnvironment(Map.of("DATA_SOURCES", "{\"sales\": \"x\", \"stock\": \"y\"}"));

        assertEquals(List.of("sales", "stock"), tools.settings().dataSources());
        ToolDefinition search = tools.registry(ToolDefinition.Audience.AGENT).get("search_database_schema");
        assertEquals(DataSources.FIELD, search.requiresUserInput().fields().getFirst().name(), "two sources: the user chooses");
        assertEquals(List.of("sales", "stock"), search.requiresUserInput().fields().getFirst().options());

        ToolRegistry chat = tools.registry(ToolDefinition.Audience.AGENT);
        assertTrue(chat.all().stream().allMatch(t -> t.isOn(ToolDefinition.Audience.AGENT)), chat.toString());
        assertTrue(tools.registry().find("keep_preview").isPresent(), "the whole catalogue: MCP's App buttons too");
        assertFalse(chat.find("keep_preview").isPresent(), "not the chat's");
    }

    @Test
    void withoutAUserInputTableNoToolAsks() {
        assertSame(UserInputPort.NONE, ToolAssembly.fromEnvironment(Map.of()).userInput());
        ToolAssembly blank = ToolAssembly.fromEnvironment(Map.of("USER_INPUT_TABLE", " "));
        assertNull(blank.settings().userInputTable());
        assertSame(UserInputPort.NONE, blank.userInput());
    }

    @Test
    void withOneTheLifecycleRunsOnItThroughOneClient() {
        ToolAssembly tools = ToolAssembly.fromEnvironment(Map.of("USER_INPUT_TABLE", "UserInputTable",
                "DYNAMODB_ENDPOINT", NOWHERE, "INPUT_REQUEST_TTL_HOURS", "2", "SAVED_VALUES_TTL_DAYS", "3"));

        assertInstanceOf(UserInputLifecycle.class, tools.userInput());
        assertEquals(new InputRequestService.Expiry(Duration.ofHours(2), Duration.ofDays(3)), tools.settings().inputExpiry());
        assertSame(tools.dynamoDb(), tools.dynamoDb(), "the input requests and a door's stores share one client");
    }

    @Test
    void aLifetimeThatCannotBeUsedStopsTheFunctionNamed() {
        Exception refused = assertThrows(RuntimeException.class,
                () -> ToolAssembly.fromEnvironment(Map.of("INPUT_REQUEST_TTL_HOURS", "ten")));
        assertTrue(refused.getMessage().contains("INPUT_REQUEST_TTL_HOURS"), refused.getMessage());
    }
}
