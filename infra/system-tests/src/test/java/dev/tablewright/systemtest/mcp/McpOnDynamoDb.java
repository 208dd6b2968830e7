package dev.tablewright.systemtest.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.toolassembly.ToolAssembly;
import dev.tablewright.dynamodb.DynamoConfigStore;
import dev.tablewright.dynamodb.DynamoDbInputRequestStore;
import dev.tablewright.dynamodb.DynamoDbSavedValuesStore;
import dev.tablewright.dynamodb.DynamoPreviewStore;
import dev.tablewright.fakes.dynamodb.DynamoDbLocalLauncher;
import dev.tablewright.fakes.dynamodb.TemplateTables;
import dev.tablewright.fakes.sampledb.SampleDatabase;
import dev.tablewright.fakes.template.SamTemplate;
import dev.tablewright.fakes.tools.InProcessToolInvoker;
import dev.tablewright.functions.mcp.McpFunction;
import dev.tablewright.http.stream.InMemoryResponseStream;
import dev.tablewright.json.Json;
import dev.tablewright.mcp.McpEndpoint;
import dev.tablewright.mcp.McpHttpRequest;
import dev.tablewright.postgres.ConnectionSource;
import dev.tablewright.postgres.DatabaseUrl;
import dev.tablewright.postgres.PostgresDatabases;
import dev.tablewright.toolcontract.Tool;
import dev.tablewright.userinput.InputRequestService;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * What the MCP suites over DynamoDB Local stand on: the template's tables under the suite's own names in the JVM's
 * one DynamoDB Local, the sample database under every data source the settings' {@code DATA_SOURCES} names (or as
 * the one default source), the stores a suite looks into, and endpoints ("instances") built as {@link McpFunction}
 * builds them, with the bearer token taken as the user's id (the token check itself is McpClientTest's). Beside
 * them, the Streamable HTTP request and the JSON-RPC messages of an answer, as every such suite reads them.
 */
final class McpOnDynamoDb implements AutoCloseable {

    static final Function<String, Optional<String>> BEARER_IS_USER =
            header -> Optional.ofNullable(header).filter(h -> h.startsWith("Bearer ")).map(h -> h.substring(7));

    private final DynamoDbLocalLauncher dynamo;
    private final Map<String, String> env;
    private final PostgresDatabases databases;

    private McpOnDynamoDb(DynamoDbLocalLauncher dynamo, Map<String, String> env, PostgresDatabases databases) {
        this.dynamo = dynamo;
        this.env = env;
        this.databases = databases;
    }

    /**
     * @param suite    the start of the suite's table names
     * @param settings the function's variables beyond the tables, the endpoint and the region
     * @param schemas  the sample database's schemas the tools may see
     */
    static McpOnDynamoDb start(String suite, Map<String, String> settings, List<String> schemas) throws Exception {
        DynamoDbLocalLauncher dynamo = DynamoDbLocalLauncher.shared();
        TemplateTables.Created tables = new TemplateTables(SamTemplate.load(SamTemplate.locate())).createAll(dynamo.client(),
                suite + "-" + UUID.randomUUID().toString().substring(0, 8) + "-");
        Map<String, String> env = new LinkedHashMap<>(tables.environment());
        env.put("DYNAMODB_ENDPOINT", dynamo.endpoint().toString());
        env.put("AWS_REGION", "us-east-1");
        env.putAll(settings);
        DatabaseUrl sample = SampleDatabase.ensureLoaded();
        Map<String, ConnectionSource> named = new LinkedHashMap<>();
        if (env.containsKey("DATA_SOURCES")) {
            Json.parse(env.get("DATA_SOURCES")).fieldNames().forEachRemaining(name -> named.put(name, sample::connect));
        } else {
            named.put(PostgresDatabases.DEFAULT_NAME, sample::connect);
        }
        return new McpOnDynamoDb(dynamo, env, new PostgresDatabases(named, schemas, Duration.ofSeconds(5), Duration.ofSeconds(60)));
    }

    /** The function's environment (a copy: a suite may vary it for one endpoint). */
    Map<String, String> env() {
        return new LinkedHashMap<>(env);
    }

    PostgresDatabases databases() {
        return databases;
    }

    /** The input requests over the table the endpoint asks its questions in, with the default expiry. */
    InputRequestService inputRequests() {
        String table = env.get("USER_INPUT_TABLE");
        return new InputRequestService(new DynamoDbInputRequestStore(dynamo.client(), table,
                InputRequestService.Expiry.DEFAULT.valuesTtl()), new DynamoDbSavedValuesStore(dynamo.client(), table),
                Clock.systemUTC(), InputRequestService.Expiry.DEFAULT);
    }

    DynamoPreviewStore previews() {
        return new DynamoPreviewStore(dynamo.client(), env.get("PREVIEWS_TABLE"));
    }

    DynamoConfigStore configs() {
        return new DynamoConfigStore(dynamo.client(), env.get("CONFIGS_TABLE"));
    }

    /** An endpoint over these tables running {@code tools} in process. */
    McpEndpoint endpoint(Clock clock, List<Tool> tools) {
        return endpoint(env, clock, tools);
    }

    /** An endpoint with another environment (this one varied) running {@code tools} in process. */
    static McpEndpoint endpoint(Map<String, String> env, Clock clock, List<Tool> tools) {
        return new McpFunction(ToolAssembly.fromEnvironment(env).runningToolsWith(new InProcessToolInvoker(tools)), env, BEARER_IS_USER,
                clock).endpoint();
    }

    /** A POST to {@code /mcp} as {@code user} (the bearer token), with {@code headers} beside the ones every request has. */
    static InMemoryResponseStream post(McpEndpoint endpoint, String user, Map<String, String> headers, String body) {
        Map<String, String> all = new LinkedHashMap<>();
        all.put("host", "mcp.example");
        all.put("authorization", "Bearer " + user);
        all.put("content-type", "application/json");
        all.putAll(headers);
        InMemoryResponseStream response = new InMemoryResponseStream();
        endpoint.handle(new McpHttpRequest("POST", "/mcp", all, body, "https"), response, Optional.empty());
        return response;
    }

    /** Posts an initialize at {@code revision} with the client's {@code capabilities}; it must be answered 200. */
    static InMemoryResponseStream initialize(McpEndpoint endpoint, String user, String revision, String capabilities) {
        InMemoryResponseStream r = post(endpoint, user, Map.of(), "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
                + "{\"protocolVersion\":\"" + revision + "\",\"capabilities\":" + capabilities
                + ",\"clientInfo\":{\"name\":\"test\",\"version\":\"1\"}}}");
        assertEquals(200, r.statusCode(), r.body());
        return r;
    }

    /** The {@code _meta} of a 2026-07-28 request: the revision, the client's capabilities and its name. */
    static ObjectNode meta(String revision, String capabilities) {
        ObjectNode meta = Json.object().put("io.modelcontextprotocol/protocolVersion", revision);
        try {
            meta.set("io.modelcontextprotocol/clientCapabilities", Json.parse(capabilities));
        } catch (IOException e) {
            throw new IllegalArgumentException(e);
        }
        meta.putObject("io.modelcontextprotocol/clientInfo").put("name", "test").put("version", "1");
        return meta;
    }

    /** The JSON-RPC messages of an answer's body: one JSON object, or the data of each SSE event. */
    static List<JsonNode> messages(String body) {
        List<JsonNode> out = new ArrayList<>();
        try {
            if (body.startsWith("{")) {
                out.add(Json.parse(body));
            } else {
                for (String line : body.split("\n")) {
                    if (line.startsWith("data: ")) {
                        out.add(Json.parse(line.substring(6)));
                    }
                }
            }
        } catch (Exception e) {
            throw new AssertionError(body, e);
        }
        return out;
    }

    /** The {@code Mcp-Session-Id} an initialize answer carries. */
    static String sessionId(InMemoryResponseStream initialized) {
        return initialized.headers().entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase("mcp-session-id"))
                .map(Map.Entry::getValue).findFirst().orElseThrow(() -> new AssertionError(initialized.headers().toString()));
    }

    /** Closes the databases' pools; the tables stay in the shared DynamoDB Local, which stops with the JVM. */
    @Override
    public void close() {
        databases.close();
    }
}
