package dev.tablewright.systemtest.chat;

import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.agent.toolcall.ToolInvoker;
import dev.tablewright.configstore.ConfigNotFoundException;
import dev.tablewright.configstore.InvalidConfigException;
import dev.tablewright.failure.ErrorCode;
import dev.tablewright.fakes.tools.InProcessToolInvoker;
import dev.tablewright.invoke.LambdaToolInvoker;
import dev.tablewright.json.Json;
import dev.tablewright.lambda.ToolFunction;
import dev.tablewright.localstack.local.InProcessFunction;
import dev.tablewright.logging.StructuredLog;
import dev.tablewright.logging.TraceContext;
import dev.tablewright.toolcontract.FieldType;
import dev.tablewright.toolcontract.InputField;
import dev.tablewright.toolcontract.Tool;
import dev.tablewright.toolcontract.ToolDefinition;
import dev.tablewright.toolcontract.ToolEffect;
import dev.tablewright.toolcontract.ToolError;
import dev.tablewright.toolcontract.ToolInvocation;
import dev.tablewright.toolcontract.ToolOutcome;
import dev.tablewright.toolcontract.UserInputRequirement;
import dev.tablewright.validation.ValidationError;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The invoker contract ({@code EnvelopeToolInvoker}), the same cases against every {@link ToolInvoker}: the
 * {@link InProcessToolInvoker} over the tools themselves (the tests and benchmarks), the Lambda one (the SDK's real
 * client against a loopback Lambda API running each tool's {@link ToolFunction}) and the {@link InProcessToolInvoker}
 * over each tool's {@link ToolFunction} as an in-process function of the template (the local stack). The same tools
 * give the same answers through each: the user-input gate before the tool, a domain failure with its code and fields,
 * arguments the envelope refuses, an unknown tool, an unexpected failure as {@code internal} without its detail, the
 * turn's trace; and, where a function runs the tool, a function that fails without an answer as {@code internal}. A
 * call that does not get through is Lambda's alone ({@link LambdaToolInvokerTest}).
 */
class ToolInvokerContractTest {

    /** The names of the probe tools that ran, in order: a gated call must not add one. */
    static final List<String> RAN = new CopyOnWriteArrayList<>();

    /** Answers what it was called with: its arguments (as the gate admitted them) and the trace it received. */
    static final Tool ECHO = probe(new ToolDefinition("echo_probe", "Echoes its arguments.",
            Json.objectLiteral("{\"type\":\"object\",\"properties\":{\"config\":{\"type\":\"object\"}}}"), null, null, null), invocation -> {
        ObjectNode output = Json.object().put("valid", true);
        output.set("config", invocation.arguments().has("config") ? invocation.arguments().get("config") : Json.object());
        output.set("arguments", invocation.arguments());
        output.put("traceparent", invocation.traceparent());
        return ToolOutcome.ok(output, new ToolEffect.ProposedConfig(output.get("config")));
    });

    static final UserInputRequirement REGION = new UserInputRequirement("Which region?", List.of(new InputField("region",
            "Region", null, FieldType.TEXT, true, null, null, null, null, null, null)), true, null);

    /** Needs a value only the user knows. */
    static final Tool NEEDS_REGION = probe(new ToolDefinition("region_probe", "Needs a region.",
            Json.objectLiteral("{\"type\":\"object\"}"), REGION, null, null),
            invocation -> ToolOutcome.ok(Json.object().put("region", invocation.arguments().path("region").asText(null))));

    /** Fails as its {@code failure} argument says. */
    static final Tool FAILS = probe(new ToolDefinition("failing_probe", "Fails.", Json.objectLiteral("{\"type\":\"object\"}"),
            null, null, null), invocation -> switch (invocation.arguments().path("failure").asText()) {
        case "not_found" -> throw new ConfigNotFoundException("no saved config cfg_9: list_table_configs lists them");
        case "invalid" -> throw new InvalidConfigException(List.of(new ValidationError("config.name", "name is required")));
        case "bug" -> throw new IllegalStateException("secret detail of the bug");
        default -> null; // a tool that answers nothing
    });

    static final List<Tool> TOOLS = List.of(ECHO, NEEDS_REGION, FAILS);

    static LoopbackLambdaApi lambdaApi;
    static ToolInvoker inProcess;
    static ToolInvoker lambda;
    static ToolInvoker template;

    @BeforeAll
    static void start() throws Exception {
        Map<String, RequestStreamHandler> handlers = new LinkedHashMap<>();
        Map<String, String> functionByTool = new LinkedHashMap<>();
        Map<String, InProcessToolInvoker.Runner> templateFunctions = new LinkedHashMap<>();
        for (Tool tool : TOOLS) {
            String name = tool.definition().name();
            String logicalId = tool.definition().functionLogicalId();
            handlers.put("tablewright-" + logicalId, new ToolFunction(tool) {
            });
            functionByTool.put(name, "tablewright-" + logicalId);
            templateFunctions.put(name, InProcessFunction.ofInstance(logicalId, new ToolFunction(tool) {
            }).asToolRunner());
        }
        // a runner that fails without an answer: an unhandled error in the function (the in-process invoker over the tools themselves has none)
        RequestStreamHandler broken = (in, out, context) -> {
            throw new IllegalStateException("secret detail of the function");
        };
        handlers.put("tablewright-BrokenProbeFunction", broken);
        functionByTool.put("broken_probe", "tablewright-BrokenProbeFunction");
        templateFunctions.put("broken_probe", InProcessFunction.ofInstance("BrokenProbeFunction", broken).asToolRunner());
        lambdaApi = LoopbackLambdaApi.start(handlers);
        inProcess = new InProcessToolInvoker(TOOLS);
        lambda = new LambdaToolInvoker(lambdaApi.client(), functionByTool);
        template = new InProcessToolInvoker(templateFunctions);
    }

    @AfterAll
    static void stop() {
        lambdaApi.close();
    }

    @BeforeEach
    void forget() {
        RAN.clear();
    }

    static Stream<Named<ToolInvoker>> invokers() {
        return Stream.of(Named.of("in-process", inProcess), Named.of("Lambda", lambda), Named.of("template", template));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invokers")
    void anOkAnswerComesBackWithItsOutputAndItsEffect(ToolInvoker invoker) {
        ObjectNode config = Json.objectLiteral("{\"name\":\"Stock\"}");
        ToolOutcome outcome = invoker.invoke(call("echo_probe", Json.object().<ObjectNode>set("config", config), Map.of()));
        assertEquals(ToolOutcome.Status.OK, outcome.status(), String.valueOf(outcome));
        assertEquals(config, assertInstanceOf(ToolOutcome.Ok.class, outcome).output().at("/arguments/config"));
        assertEquals(new ToolEffect.ProposedConfig(config), assertInstanceOf(ToolOutcome.Ok.class, outcome).effect());
        assertEquals(List.of("echo_probe"), RAN);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invokers")
    void aToolThatNeedsAValueNobodyGaveAsksForItAndDoesNotRun(ToolInvoker invoker) {
        ToolOutcome outcome = invoker.invoke(call("region_probe", Json.object(), Map.of()));
        assertEquals(ToolOutcome.Status.NEEDS_INPUT, outcome.status(), String.valueOf(outcome));
        assertEquals("Which region?", assertInstanceOf(ToolOutcome.NeedsInput.class, outcome).request().reason());
        assertEquals(List.of("region"), assertInstanceOf(ToolOutcome.NeedsInput.class, outcome).request().fields().stream().map(InputField::name).toList());
        assertEquals(List.of(), RAN, "the gate answered: the tool did not run");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invokers")
    void aSavedValueIsMergedIntoTheArgumentsTheToolRunsWith(ToolInvoker invoker) {
        ToolOutcome outcome = invoker.invoke(call("region_probe", Json.object(), Map.of("region", "eu-west-1")));
        assertEquals(ToolOutcome.Status.OK, outcome.status(), String.valueOf(outcome));
        assertEquals("eu-west-1", assertInstanceOf(ToolOutcome.Ok.class, outcome).output().path("region").asText());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invokers")
    void aDomainFailureAnswersItsCodeAndMessage(ToolInvoker invoker) {
        ToolOutcome outcome = invoker.invoke(call("failing_probe", Json.object().put("failure", "not_found"), Map.of()));
        assertEquals(new ToolError(ErrorCode.NOT_FOUND, "no saved config cfg_9: list_table_configs lists them"), assertInstanceOf(ToolOutcome.Failed.class, outcome).error());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invokers")
    void anInvalidDomainFailureIsInvalidArgumentsNamingEachField(ToolInvoker invoker) {
        ToolOutcome outcome = invoker.invoke(call("failing_probe", Json.object().put("failure", "invalid"), Map.of()));
        assertEquals(ErrorCode.INVALID_ARGUMENTS, assertInstanceOf(ToolOutcome.Failed.class, outcome).error().code());
        assertEquals(List.of(new ValidationError("config.name", "name is required")), assertInstanceOf(ToolOutcome.Failed.class, outcome).error().errors());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invokers")
    void argumentsTheEnvelopeCannotCarryAreInvalidArgumentsAndTheToolDoesNotRun(ToolInvoker invoker) {
        // a config sent as JSON text is read as the object it encodes (models send both); text that is not JSON is refused
        ToolOutcome outcome = invoker.invoke(call("echo_probe", Json.object().put("config", "{\"name\": "), Map.of()));
        assertNotNull(assertInstanceOf(ToolOutcome.Failed.class, outcome).error(), outcome.toString());
        assertEquals(ErrorCode.INVALID_ARGUMENTS, assertInstanceOf(ToolOutcome.Failed.class, outcome).error().code());
        assertEquals("config", assertInstanceOf(ToolOutcome.Failed.class, outcome).error().errors().getFirst().field());
        assertEquals(List.of(), RAN);
        ToolOutcome asText = invoker.invoke(call("echo_probe", Json.object().put("config", "{\"name\": \"Stock\"}"), Map.of()));
        assertEquals("Stock", assertInstanceOf(ToolOutcome.Ok.class, asText).output().at("/arguments/config/name").asText(), asText.toString());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invokers")
    void anUnknownToolIsUnknownTool(ToolInvoker invoker) {
        assertTrue(invoker.knows("echo_probe"));
        assertFalse(invoker.knows("no_such_tool"));
        ToolOutcome outcome = invoker.invoke(call("no_such_tool", Json.object(), Map.of()));
        assertEquals(ErrorCode.UNKNOWN_TOOL, assertInstanceOf(ToolOutcome.Failed.class, outcome).error().code());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invokers")
    void anUnexpectedFailureIsInternalAndTellsTheModelNothingOfIt(ToolInvoker invoker) {
        for (String failure : List.of("bug", "nothing")) {
            ToolOutcome outcome = invoker.invoke(call("failing_probe", Json.object().put("failure", failure), Map.of()));
            assertEquals(ErrorCode.INTERNAL, assertInstanceOf(ToolOutcome.Failed.class, outcome).error().code(), failure);
            String message = assertInstanceOf(ToolOutcome.Failed.class, outcome).error().message();
            assertFalse(message.contains("secret detail") || message.contains("Exception") || message.contains("\tat "), message);
            assertTrue(message.contains("failing_probe"), "names the tool: " + message);
        }
    }

    static Stream<Named<ToolInvoker>> invokersWithAFunction() {
        return Stream.of(Named.of("Lambda", lambda), Named.of("template", template));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invokersWithAFunction")
    void aFunctionThatFailsWithoutAnAnswerIsInternalAndTellsTheModelNothingOfIt(ToolInvoker invoker) {
        ToolOutcome outcome = invoker.invoke(call("broken_probe", Json.object(), Map.of()));
        assertEquals(ErrorCode.INTERNAL, assertInstanceOf(ToolOutcome.Failed.class, outcome).error().code());
        assertFalse(assertInstanceOf(ToolOutcome.Failed.class, outcome).error().message().contains("secret detail"), assertInstanceOf(ToolOutcome.Failed.class, outcome).error().message());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invokers")
    void theTurnsTraceReachesTheTool(ToolInvoker invoker) {
        TraceContext turn = TraceContext.generate();
        ToolOutcome outcome;
        try {
            TraceContext.begin(turn);
            outcome = invoker.invoke(call("echo_probe", Json.object(), Map.of()));
        } finally {
            StructuredLog.clear();
        }
        JsonNode sent = assertInstanceOf(ToolOutcome.Ok.class, outcome).output().path("traceparent");
        assertNotNull(sent.textValue(), assertInstanceOf(ToolOutcome.Ok.class, outcome).output().toString());
        assertEquals(turn.traceId(), TraceContext.parse(sent.textValue()).orElseThrow().traceId());
    }

    private static ToolInvocation call(String tool, ObjectNode arguments, Map<String, String> sessionValues) {
        return new ToolInvocation(tool, "call_1", "conv_1", "user_1", arguments, sessionValues);
    }

    private static Tool probe(ToolDefinition definition, Function<ToolInvocation, ToolOutcome> behaviour) {
        return new Tool() {
            @Override
            public ToolDefinition definition() {
                return definition;
            }

            @Override
            public ToolOutcome execute(ToolInvocation invocation) {
                RAN.add(definition.name());
                return behaviour.apply(invocation);
            }
        };
    }
}
