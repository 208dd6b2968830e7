package dev.tablewright.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.http.stream.HttpResponseStream;
import dev.tablewright.json.Json;
import dev.tablewright.logging.StructuredLog;
import dev.tablewright.store.StoreUnavailableException;
import dev.tablewright.tool.ToolDefinition;
import io.modelcontextprotocol.spec.McpSchema;

import java.time.Clock;
import java.util.Map;
import java.util.Optional;

/**
 * {@code tools/list} and {@code tools/call} of a session: the catalogue (with MCP Apps' view and app-only tools for a
 * client that declared the extension), and each call run by a {@link ToolCall}.
 */
final class ToolMethods {

    private static final StructuredLog LOG = StructuredLog.of(ToolMethods.class);

    private final McpSettings settings;
    private final McpToolServices tools;
    private final Clock clock;

    ToolMethods(McpSettings settings, McpToolServices tools, Clock clock) {
        this.settings = settings;
        this.tools = tools;
        this.clock = clock;
    }

    JsonNode list(McpRequest request) {
        ObjectNode result = Json.object();
        result.set("tools", Json.MAPPER.valueToTree(tools.catalogue().tools(request.showsApps())));
        return result;
    }

    /** The call's answer: plain JSON, or an SSE stream when the tool asks the user first. */
    void call(McpRequest request, HttpResponseStream response) {
        JsonNode id = request.id();
        JsonNode params = request.params();
        JsonNode name = params.get("name");
        if (name == null || !name.isTextual()) {
            JsonRpc.send(response, 200, Map.of(), JsonRpc.error(id, JsonRpc.INVALID_PARAMS, "Invalid params: params.name must be a string"));
            return;
        }
        Optional<ToolDefinition> tool = tools.catalogue().definition(name.textValue(), request.showsApps());
        if (tool.isEmpty()) {
            JsonRpc.send(response, 200, Map.of(), JsonRpc.error(id, JsonRpc.INVALID_PARAMS, "Unknown tool: " + JsonRpc.clip(name.textValue())));
            return;
        }
        EventStream stream = new EventStream(response, Map.of());
        McpSchema.CallToolResult result;
        JsonNode arguments = params.get("arguments");
        if (arguments != null && !arguments.isNull() && !arguments.isObject()) {
            result = ToolResults.failure("arguments: expected an object, got " + Json.kind(arguments));
        } else {
            ObjectNode args = arguments == null || arguments.isNull() ? Json.object() : (ObjectNode) arguments;
            try {
                result = new ToolCall(settings, tools, request.session(), stream, request.deadline(), clock, id).run(tool.get(), args);
            } catch (StoreUnavailableException e) {
                LOG.warn("a store is unavailable during a tool call", "cause", String.valueOf(e.getMessage()));
                result = ToolResults.failure("A store Tablewright needs is unavailable just now; try again shortly.");
            } catch (RuntimeException e) {
                LOG.error("tool call failed", e, "tool", name.textValue());
                result = ToolResults.failure("The tool failed unexpectedly.");
            }
        }
        ObjectNode answer = JsonRpc.result(id, Json.MAPPER.valueToTree(result));
        if (stream.started()) {
            stream.send(answer);
            response.close();
        } else {
            JsonRpc.send(response, 200, Map.of(), answer);
        }
    }
}
