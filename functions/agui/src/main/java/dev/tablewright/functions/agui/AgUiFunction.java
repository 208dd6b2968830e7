package dev.tablewright.functions.agui;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.agent.TurnObserver;
import dev.tablewright.agent.conversation.ConversationState;
import dev.tablewright.agui.AgUiEndpoint;
import dev.tablewright.agui.AgUiEventStream;
import dev.tablewright.agui.RunAgentInputParser;
import dev.tablewright.assembly.AgentAssembly;
import dev.tablewright.assembly.ChatSettings;
import dev.tablewright.door.FunctionUrlRequest;
import dev.tablewright.door.Refusals;
import dev.tablewright.door.TurnStreamSettings;
import dev.tablewright.door.TurnStreams;
import dev.tablewright.dynamodb.DynamoConfigStore;
import dev.tablewright.dynamodb.DynamoConversationStore;
import dev.tablewright.dynamodb.DynamoConversations;
import dev.tablewright.dynamodb.DynamoPreviewAcceptance;
import dev.tablewright.dynamodb.DynamoPreviewStore;
import dev.tablewright.dynamodb.DynamoTurnStreamLog;
import dev.tablewright.http.stream.HttpResponseStream;
import dev.tablewright.http.stream.InMemoryResponseStream;
import dev.tablewright.jwt.JwtVerifier;
import dev.tablewright.lambda.Env;
import dev.tablewright.lambda.Priming;
import dev.tablewright.lambda.streaming.LambdaInvocation;
import dev.tablewright.lambda.streaming.StreamingHandler;
import dev.tablewright.logging.StructuredLog;
import dev.tablewright.logging.TraceContext;
import dev.tablewright.preview.PreviewDecisions;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The AG-UI door's handler (named in {@code _HANDLER}): wiring only. The caller is the verified JWT's subject (401
 * without one); the function URL event is handed to {@link AgUiEndpoint}. The no-argument constructor is the init
 * phase: settings, model, tool invoker and stores, once per environment.
 */
public final class AgUiFunction implements StreamingHandler {

    private final AgUiEndpoint endpoint;
    private final Function<JsonNode, String> callerIdentity;
    private final TurnObserver observer;

    public AgUiFunction() {
        this(AgentAssembly.fromEnvironment(Env.all()), Env.all());
        // SnapStart: the request reading and event writing are loaded into the snapshot (nothing external is called)
        Priming.register("agui", AgUiFunction::prime);
    }

    private AgUiFunction(AgentAssembly agent, Map<String, String> env) {
        this(agent, env, agent.turnObserver());
    }

    private AgUiFunction(AgentAssembly agent, Map<String, String> env, TurnObserver observer) {
        this(endpoint(agent, agent.loop(agent.model(), agent.lambdaTools(), agent.userInput(), observer), env),
                JwtVerifier.fromEnvironment(env)::userIdOf, observer);
    }

    /** Every part supplied: the door, the caller of an event, and what flushes a turn's spans after it. */
    public AgUiFunction(AgUiEndpoint endpoint, Function<JsonNode, String> callerIdentity, TurnObserver observer) {
        this.endpoint = endpoint;
        this.callerIdentity = callerIdentity;
        this.observer = observer;
    }

    static void prime() {
        RunAgentInputParser.parse("{\"threadId\":\"t\",\"runId\":\"r\",\"messages\":[{\"id\":\"m\",\"role\":\"user\",\"content\":\"hi\"}]}");
        new AgUiEventStream(new InMemoryResponseStream()).write(new dev.tablewright.agui.AgUiEvent.RunStarted("t", "r", null));
        JwtVerifier.fromEnvironment(Env.all()).prime();
    }

    /** The door over {@code loop}, its stores on the deployment's tables (none: nothing is stored, nothing is kept). */
    public static AgUiEndpoint endpoint(AgentAssembly agent, dev.tablewright.agent.AgentLoop loop, Map<String, String> env) {
        ChatSettings settings = agent.settings();
        if (settings.conversationsTable() == null) {
            return new AgUiEndpoint(loop, ConversationState.NONE, TurnStreams.NONE, AgUiEndpoint.Decisions.NONE, Clock.systemUTC());
        }
        DynamoDbClient dynamo = agent.dynamoDb();
        DynamoConversationStore store = new DynamoConversationStore(dynamo, settings.conversationsTable(), settings.conversationTtl());
        DynamoConfigStore configs = new DynamoConfigStore(dynamo, settings.configsTable());
        DynamoPreviewStore previews = new DynamoPreviewStore(dynamo, settings.previewsTable());
        ConversationState state = new ConversationState(store, DynamoConversations.service(dynamo, store, configs,
                settings.userInputTable(), settings.previewsTable(), Clock.systemUTC()), configs, Clock.systemUTC());
        TurnStreamSettings streamSettings = TurnStreamSettings.fromEnvironment(env);
        TurnStreams streams = streamSettings.table() == null ? TurnStreams.NONE
                : new TurnStreams(new DynamoTurnStreamLog(dynamo, streamSettings.table(), streamSettings.ttl()),
                new TurnStreams.Settings(streamSettings.batching(), streamSettings.readerPoll(), settings.limits().maxTurnDuration()),
                Clock.systemUTC());
        return new AgUiEndpoint(loop, state, streams, new AgUiEndpoint.Decisions(previews,
                new PreviewDecisions(previews, new DynamoPreviewAcceptance(configs, previews)), agent.inputRequests()), Clock.systemUTC());
    }

    @Override
    public void handle(JsonNode event, HttpResponseStream response) {
        handle(event, response, Optional.empty(), null);
    }

    @Override
    public void handle(JsonNode event, HttpResponseStream response, LambdaInvocation invocation) {
        handle(event, response, invocation.deadlineIfKnown(), invocation.traceId());
    }

    private void handle(JsonNode event, HttpResponseStream response, Optional<Instant> deadline, String xrayTraceHeader) {
        FunctionUrlRequest request = FunctionUrlRequest.of(event, "POST");
        StructuredLog.put("requestId", request.requestId());
        TraceContext.begin(TraceContext.fromXRayHeader(xrayTraceHeader).orElseGet(TraceContext::generate));
        try {
            // no authorizer in front of the function URL: the caller is checked before the body is read
            String owner = callerIdentity.apply(event);
            if (owner == null) {
                Refusals.unauthorized(response, "sign in to use the assistant");
                return;
            }
            endpoint.handle(request.method(), request.rawPath(), request::body, owner, deadline, response);
        } finally {
            observer.flush();
            StructuredLog.clear();
        }
    }
}
