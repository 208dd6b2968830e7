package dev.tablewright.toolassembly;

import dev.tablewright.agent.toolcall.ToolInvoker;
import dev.tablewright.agent.toolcall.UserInputLifecycle;
import dev.tablewright.agent.toolcall.UserInputPort;
import dev.tablewright.catalogue.ToolCatalogue;
import dev.tablewright.dynamodb.DynamoDbClients;
import dev.tablewright.dynamodb.DynamoDbInputRequestStore;
import dev.tablewright.dynamodb.DynamoDbSavedValuesStore;
import dev.tablewright.invoke.LambdaToolInvoker;
import dev.tablewright.toolcontract.ToolDefinition;
import dev.tablewright.toolcontract.ToolRegistry;
import dev.tablewright.userinput.InputRequestService;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

import java.time.Clock;
import java.util.Map;

/**
 * The tools as a door offers them, assembled from a function's environment, with no model: the catalogue's registry
 * for the deployment's data sources, each tool invoked in its own function, and the input-request lifecycle on
 * DynamoDB. The agent's assembly builds on it; a door that runs no model (MCP) uses it alone, so its jar holds no
 * model client and no tracing. Each part is built when asked for: a caller that brings its own (in-process tools, a
 * local store) pays for none of the others.
 */
public final class ToolAssembly {

    private final Map<String, String> env;
    private final ToolSettings settings;
    private final ToolInvoker tools;
    private DynamoDbClient dynamoDb;
    private DoorStores doorStores;

    private ToolAssembly(Map<String, String> env, ToolSettings settings, ToolInvoker tools) {
        this.env = Map.copyOf(env);
        this.settings = settings;
        this.tools = tools;
    }

    /** Reads the tools' settings; a value that cannot be used stops here, named. */
    public static ToolAssembly fromEnvironment(Map<String, String> env) {
        return new ToolAssembly(env, ToolSettings.fromEnvironment(env), null);
    }

    /** This assembly with its tools run by {@code invoker} (the local stack's, in-process) instead of Lambda {@code Invoke}. */
    public ToolAssembly runningToolsWith(ToolInvoker invoker) {
        return new ToolAssembly(env, settings, invoker);
    }

    /** How the tools run: each in its own function ({@link #lambdaTools}), unless this assembly was given another way. */
    public ToolInvoker tools() {
        return tools != null ? tools : lambdaTools();
    }

    /** The stores a door needs, on this environment's one DynamoDB client, built once. */
    public synchronized DoorStores doorStores() {
        if (doorStores == null) {
            doorStores = new DoorStores(env, this::dynamoDb);
        }
        return doorStores;
    }

    public ToolSettings settings() {
        return settings;
    }

    /** Every tool of the catalogue for the configured data sources (a door that offers several doors' tools: MCP). */
    public ToolRegistry registry() {
        return ToolCatalogue.registry(settings.dataSources());
    }

    /** The tools {@code door} offers, for the configured data sources. */
    public ToolRegistry registry(ToolDefinition.Audience door) {
        return registry().offeredOn(door);
    }

    /** Each tool run in its own function, by Lambda {@code Invoke} of the function its {@code TOOL_FUNCTION_*} names. */
    public ToolInvoker lambdaTools() {
        return new LambdaToolInvoker(LambdaToolInvoker.lambdaClient(env), LambdaToolInvoker.functionsFromEnvironment(env));
    }

    /**
     * The environment's DynamoDB client, built when first asked for and then shared: the input requests and a door's
     * own stores go through one client.
     */
    public synchronized DynamoDbClient dynamoDb() {
        if (dynamoDb == null) {
            dynamoDb = DynamoDbClients.fromEnvironment(env);
        }
        return dynamoDb;
    }

    /** The input-request lifecycle (requests and saved values) on {@code table}, with the settings' lifetimes. */
    public InputRequestService inputRequests(String table) {
        return new InputRequestService(new DynamoDbInputRequestStore(dynamoDb(), table, settings.inputExpiry().valuesTtl()),
                new DynamoDbSavedValuesStore(dynamoDb(), table), Clock.systemUTC(), settings.inputExpiry());
    }

    /** The agent's view of the lifecycle on {@code USER_INPUT_TABLE}; {@link UserInputPort#NONE} without one. */
    public UserInputPort userInput() {
        return settings.userInputTable() == null ? UserInputPort.NONE : new UserInputLifecycle(inputRequests(settings.userInputTable()));
    }
}
