package dev.tablewright.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.agent.toolcall.UserInputLifecycle;
import dev.tablewright.agent.toolcall.UserInputPort;
import dev.tablewright.door.FormAnswers;
import dev.tablewright.http.stream.HttpResponseStream;
import dev.tablewright.json.Json;
import dev.tablewright.logging.StructuredLog;
import dev.tablewright.store.StoreUnavailableException;
import dev.tablewright.toolcontract.ToolDefinition;
import io.modelcontextprotocol.spec.McpSchema;

import java.time.Clock;
import java.util.Map;
import java.util.Optional;

/**
 * {@code tools/list} and {@code tools/call}: the catalogue (with MCP Apps' view and app-only tools for a client that
 * declared the extension, in either era), and each call run by a {@link ToolCall}, asking the user on the call's stream
 * (a 2025 session) or with {@code input_required} (2026-07-28).
 */
final class ToolMethods {

    private static final StructuredLog LOG = StructuredLog.of(ToolMethods.class);

    private final McpSettings settings;
    private final McpToolServices tools;
    private final UserInputPort userInput;
    private final FormAnswers answers;
    private final RequestStateSeal seal;
    private final Clock clock;

    ToolMethods(McpSettings settings, McpToolServices tools, RequestStateSeal seal, Clock clock) {
        this.settings = settings;
        this.tools = tools;
        this.userInput = new UserInputLifecycle(tools.inputRequests());
        this.answers = new FormAnswers(tools.inputRequests());
        this.seal = seal;
        this.clock = clock;
    }

    /** SnapStart priming: a requestState sealed and opened, so the cipher is loaded before the first retry. */
    void prime() {
        RequestStateSeal.Binding binding = new RequestStateSeal.Binding("priming", "tools/call", "priming", RequestStateSeal.digest(Json.object()));
        java.time.Instant now = clock.instant();
        seal.open(seal.seal(binding, now.plusSeconds(60), Json.object()), binding, now)
                .orElseThrow(() -> new IllegalStateException("a requestState sealed here did not open"));
    }

    JsonNode list(McpRequest request) {
        ObjectNode result = Json.object();
        result.set("tools", Json.MAPPER.valueToTree(tools.catalogue().tools(request.showsApps())));
        return result;
    }

    /** A 2025 session's call: plain JSON, or an SSE stream when the tool asks the user first (and waits). */
    void call(McpRequest request, HttpResponseStream response) {
        JsonNode id = request.id();
        ToolDefinition tool;
        ObjectNode args;
        try {
            tool = tool(request);
            args = arguments(request.params());
        } catch (McpError e) {
            JsonRpc.send(response, 200, Map.of(), JsonRpc.error(id, e.code(), e.getMessage(), e.data()));
            return;
        } catch (BadArguments e) {
            JsonRpc.send(response, 200, Map.of(), JsonRpc.result(id, Json.MAPPER.valueToTree(e.result)));
            return;
        }
        EventStream stream = new EventStream(response, Map.of());
        StreamedQuestions questions = new StreamedQuestions(settings, answers, userInput, request.caller(),
                stream, request.deadline(), clock, id);
        McpSchema.CallToolResult result = run(new ToolCall(tools, userInput, request.caller(), questions, clock, Map.of(), false),
                tool, args).complete();
        ObjectNode answer = JsonRpc.result(id, Json.MAPPER.valueToTree(result));
        if (stream.started()) {
            stream.send(answer);
            response.close();
        } else {
            JsonRpc.send(response, 200, Map.of(), answer);
        }
    }

    /**
     * A 2026-07-28 call: the result at once, or {@code input_required} when the tool asks the user; a retry's
     * {@code requestState} is opened (and refused, before anything runs, when it is not this caller's state for this
     * very call) and its {@code inputResponses} answer the question.
     */
    JsonNode callStateless(McpRequest request) throws McpError {
        ToolDefinition tool = tool(request);
        ObjectNode args;
        try {
            args = arguments(request.params());
        } catch (BadArguments e) {
            return Json.MAPPER.valueToTree(e.result);
        }
        RequestStateSeal.Binding binding = new RequestStateSeal.Binding(request.ownerId(), request.method(), tool.name(),
                RequestStateSeal.digest(args));
        RetriedQuestions.Retry retry = retry(request.params(), binding);
        RetriedQuestions questions = new RetriedQuestions(settings, answers, userInput, request.caller(), seal,
                binding, retry, clock);
        ToolCall.Outcome outcome = run(new ToolCall(tools, userInput, request.caller(), questions, clock,
                RetriedQuestions.carriedValues(retry.carried()), true), tool, args);
        if (outcome.inputRequired() != null) {
            return outcome.inputRequired();
        }
        ObjectNode result = Json.MAPPER.valueToTree(outcome.complete());
        if (outcome.dataSourceChosen() != null) {
            // the model sees which data source answered, so it can name it next time and not be asked again
            ((com.fasterxml.jackson.databind.node.ArrayNode) result.withArray("content")).addObject().put("type", "text")
                    .put("text", "Answered from the data source \u201c" + outcome.dataSourceChosen() + "\u201d: pass \"database\": \""
                            + outcome.dataSourceChosen() + "\" to use it again without asking the user.");
            result.putObject("_meta").put(DATA_SOURCE_META, outcome.dataSourceChosen());
        }
        return result;
    }

    /** The {@code _meta} key of a 2026 result naming the data source a call ran on when its arguments did not. */
    static final String DATA_SOURCE_META = "dev.tablewright/database";

    private RetriedQuestions.Retry retry(JsonNode params, RequestStateSeal.Binding binding) throws McpError {
        JsonNode state = params.get("requestState");
        JsonNode responses = params.get("inputResponses");
        if (responses != null && !responses.isNull() && !responses.isObject()) {
            throw new McpError(JsonRpc.INVALID_PARAMS, "Invalid params: inputResponses must be an object");
        }
        if (state == null || state.isNull()) {
            return new RetriedQuestions.Retry(Optional.empty(), Optional.ofNullable(responses).filter(JsonNode::isObject));
        }
        Optional<RequestStateSeal.Opened> opened = state.isTextual() ? seal.open(state.textValue(), binding, clock.instant()) : Optional.empty();
        if (opened.isEmpty()) {
            LOG.info("requestState refused", "tool", binding.tool());
            throw new McpError(JsonRpc.INVALID_PARAMS, "Invalid or expired requestState");
        }
        return new RetriedQuestions.Retry(Optional.of(opened.get().carried()), Optional.ofNullable(responses).filter(JsonNode::isObject));
    }

    /** The called tool, among those this client is offered (the app-only ones only with MCP Apps). */
    private ToolDefinition tool(McpRequest request) throws McpError {
        JsonNode name = request.params().get("name");
        if (name == null || !name.isTextual()) {
            throw new McpError(JsonRpc.INVALID_PARAMS, "Invalid params: params.name must be a string");
        }
        return tools.catalogue().definition(name.textValue(), request.showsApps())
                .orElseThrow(() -> new McpError(JsonRpc.INVALID_PARAMS, "Unknown tool: " + JsonRpc.clip(name.textValue())));
    }

    /** Arguments that are not an object are the tool's refusal (a result with isError), not a protocol error. */
    private static final class BadArguments extends Exception {
        private final transient McpSchema.CallToolResult result;

        BadArguments(McpSchema.CallToolResult result) {
            super(null, null, false, false);
            this.result = result;
        }
    }

    private static ObjectNode arguments(JsonNode params) throws BadArguments {
        JsonNode arguments = params.get("arguments");
        if (arguments != null && !arguments.isNull() && !arguments.isObject()) {
            throw new BadArguments(ToolResults.failure("arguments: expected an object, got " + Json.kind(arguments)));
        }
        return arguments == null || arguments.isNull() ? Json.object() : (ObjectNode) arguments;
    }

    private static ToolCall.Outcome run(ToolCall call, ToolDefinition tool, ObjectNode args) {
        try {
            return call.run(tool, args);
        } catch (StoreUnavailableException e) {
            LOG.warn("a store is unavailable during a tool call", "cause", String.valueOf(e.getMessage()));
            return ToolCall.Outcome.of(ToolResults.failure("A store Tablewright needs is unavailable just now; try again shortly."));
        } catch (RuntimeException e) {
            LOG.error("tool call failed", e, "tool", tool.name());
            return ToolCall.Outcome.of(ToolResults.failure("The tool failed unexpectedly."));
        }
    }
}
