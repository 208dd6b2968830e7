package dev.tablewright.functions.chat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.agent.TurnObserver;
import dev.tablewright.agent.model.ModelFailure;
import dev.tablewright.aisdk.ChatEndpoint;
import dev.tablewright.aisdk.UiStreamTurn;
import dev.tablewright.aisdk.approval.ToolApprovalSignature;
import dev.tablewright.aisdk.approval.ToolApprovals;
import dev.tablewright.dynamodb.DynamoPreviewAcceptance;
import dev.tablewright.dynamodb.DynamoPreviewStore;
import dev.tablewright.dynamodb.DynamoToolApprovalStore;
import dev.tablewright.preview.PreviewDecisions;
import dev.tablewright.assembly.AgentAssembly;
import dev.tablewright.assembly.ChatSettings;
import dev.tablewright.agent.conversation.ConversationState;
import dev.tablewright.aisdk.request.BadChatRequest;
import dev.tablewright.door.TurnStreams;
import dev.tablewright.door.TurnStreamSettings;
import dev.tablewright.door.FunctionUrlRequest;
import dev.tablewright.door.Refusals;
import dev.tablewright.aisdk.request.ChatRequestParser;
import dev.tablewright.http.stream.HttpResponseStream;
import dev.tablewright.http.stream.InMemoryResponseStream;
import dev.tablewright.aisdk.stream.UiChunk;
import dev.tablewright.aisdk.stream.UiMessageAssembler;
import dev.tablewright.aisdk.stream.UiMessageStreamWriter;
import dev.tablewright.dynamodb.DynamoConfigStore;
import dev.tablewright.dynamodb.DynamoConversationStore;
import dev.tablewright.dynamodb.DynamoConversations;
import dev.tablewright.dynamodb.DynamoDbClients;
import dev.tablewright.dynamodb.DynamoTurnStreamLog;
import dev.tablewright.failure.DomainFailure;
import dev.tablewright.json.Json;
import dev.tablewright.jwt.JwtVerifier;
import dev.tablewright.lambda.Env;
import dev.tablewright.lambda.HttpFailures;
import dev.tablewright.lambda.HttpResponse;
import dev.tablewright.lambda.Priming;
import dev.tablewright.lambda.streaming.LambdaInvocation;
import dev.tablewright.lambda.streaming.StreamingHandler;
import dev.tablewright.logging.StructuredLog;
import dev.tablewright.logging.TraceContext;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The chat function's handler (named in {@code _HANDLER}): wiring only. The caller is the verified JWT's subject (401
 * without one); the function URL event (its body decoded, at most {@link Json#MAX_DOCUMENT_CHARS}: a 400 naming
 * {@code body}) is handed to the AI SDK's {@link ChatEndpoint}, which routes it, prepares the conversation and runs the
 * turn ({@link UiStreamTurn}: request → agent input → agent loop → UI message stream). A refusal before the stream
 * starts is a {@link DomainFailure}, answered by {@link HttpFailures} like every other function's.
 * The no-argument constructor is the init phase: settings, model, tool invoker and stores, once per environment.
 */
public final class ChatFunction implements StreamingHandler {

    private final ChatRequestParser parser = new ChatRequestParser();
    private final Function<JsonNode, String> callerIdentity;
    private final Supplier<Optional<Instant>> invocationDeadline;
    private ChatEndpoint endpoint;
    private TurnObserver observer = TurnObserver.NONE;

    public ChatFunction() {
        this(Env.all());
        // SnapStart: the first turn's request decoding and stream writing are loaded and warmed into the snapshot
        // (nothing external is called: no model, no token check, no table)
        Priming.register("chat", this::prime);
    }

    /**
     * What a restored function would otherwise load on its first turn: the request decoding and stream writing,
     * a JWT verification (a throwaway key; no JWKS fetch) and a streamed model completion (a canned answer from
     * the loopback interface; no model is called).
     */
    void prime() {
        try {
            parser.parse(PRIMING_REQUEST);
        } catch (BadChatRequest e) {
            throw new IllegalStateException(e);
        }
        UiMessageStreamWriter ui = new UiMessageStreamWriter(new InMemoryResponseStream());
        ui.observe(new UiMessageAssembler());
        ui.start("msg_priming", Json.object().put("conversationId", "priming"));
        ui.textStart("t");
        ui.textDelta("t", "primed");
        ui.textEnd("t");
        ui.finish(UiChunk.FinishReason.STOP, null);
        ui.done();
        Map<String, String> env = Env.all();
        JwtVerifier.fromEnvironment(env).prime();
        try {
            dev.tablewright.assembly.ModelProvider.fromEnvironment(env).prime(env);
        } catch (java.io.IOException | ModelFailure e) {
            throw new IllegalStateException("model priming failed: " + e.getMessage(), e);
        }
    }

    private static final String PRIMING_REQUEST = "{\"id\":\"priming\",\"trigger\":\"submit-message\",\"messages\":[{\"id\":\"m1\","
            + "\"role\":\"user\",\"parts\":[{\"type\":\"text\",\"text\":\"hello\"}]}],\"context\":{\"page\":\"tables\"}}";

    ChatFunction(Map<String, String> env) {
        this(AgentAssembly.fromEnvironment(env), env);
    }

    private ChatFunction(AgentAssembly agent, Map<String, String> env) {
        this(agent, env, agent.turnObserver());
    }

    private ChatFunction(AgentAssembly agent, Map<String, String> env, TurnObserver observer) {
        // one DynamoDB client for the user-input lifecycle and the door's stores (agent.dynamoDb(), built once)
        this(new UiStreamTurn(agent.loop(agent.model(), agent.lambdaTools(), agent.userInput(), observer)),
                conversationMemory(agent.settings(), agent::dynamoDb), turnStreams(env, agent.settings(), agent::dynamoDb),
                // The function URL has no authorizer: the caller is the verified JWT's sub, or nobody (401).
                JwtVerifier.fromEnvironment(env)::userIdOf, Optional::empty);
        flushingAfterEachTurn(observer);
        withToolApprovals(toolApprovals(env, agent.settings(), agent::dynamoDb));
    }

    /**
     * Every part supplied: the turn through the AI SDK's door, the conversation it is stored in
     * ({@link ConversationState#NONE}: the page's context is all a turn has), the stream log of running turns
     * ({@link TurnStreams#NONE}: not resumable), the caller of an event, and the deadline when the runtime gives none.
     */
    public ChatFunction(UiStreamTurn turn, ConversationState memory, TurnStreams streams,
                        Function<JsonNode, String> callerIdentity, Supplier<Optional<Instant>> invocationDeadline) {
        this.endpoint = new ChatEndpoint(turn, memory, streams, ToolApprovals.NONE, Refusals::answer);
        this.callerIdentity = callerIdentity;
        this.invocationDeadline = invocationDeadline;
    }

    /**
     * After each request, once its answer is complete, {@code observer} sends what the turn left (its spans): after the
     * client has its last byte, before the invocation ends and Lambda freezes the process. Returns this function.
     */
    public ChatFunction flushingAfterEachTurn(TurnObserver observer) {
        this.observer = observer;
        return this;
    }

    /**
     * Keeping a preview through the AI SDK's tool approval, for clients that ask ({@code "toolApprovals": true});
     * {@link ToolApprovals#NONE} (never issued) by default. Returns this function.
     */
    public ChatFunction withToolApprovals(ToolApprovals approvals) {
        this.endpoint = endpoint.withToolApprovals(approvals);
        return this;
    }

    /**
     * The tool approvals of a deployment with a conversation store: issued calls kept beside the conversations,
     * answers carried out as the preview routes do, signed with {@code TOOL_APPROVAL_SECRET} (or the secret
     * {@code TOOL_APPROVAL_SECRET_ARN} names) when there is one; {@link ToolApprovals#NONE} without a store.
     */
    public static ToolApprovals toolApprovals(Map<String, String> env) {
        return toolApprovals(env, ChatSettings.fromEnvironment(env), () -> DynamoDbClients.fromEnvironment(env));
    }

    private static ToolApprovals toolApprovals(Map<String, String> env, ChatSettings settings, Supplier<DynamoDbClient> client) {
        if (settings.conversationsTable() == null) {
            return ToolApprovals.NONE;
        }
        DynamoDbClient dynamo = client.get();
        DynamoConfigStore configs = new DynamoConfigStore(dynamo, settings.configsTable());
        DynamoPreviewStore previews = new DynamoPreviewStore(dynamo, settings.previewsTable());
        return new ToolApprovals(new DynamoToolApprovalStore(dynamo, settings.conversationsTable(), settings.conversationTtl()),
                new PreviewDecisions(previews, new DynamoPreviewAcceptance(configs, previews)),
                ToolApprovalSecret.fromEnvironment(env).map(ToolApprovalSignature::new), Clock.systemUTC());
    }

    /** The stream log of running turns ({@code TURN_STREAMS_TABLE}); {@link TurnStreams#NONE} without one. */
    public static TurnStreams turnStreams(Map<String, String> env) {
        return turnStreams(env, ChatSettings.fromEnvironment(env), () -> DynamoDbClients.fromEnvironment(env));
    }

    private static TurnStreams turnStreams(Map<String, String> env, ChatSettings settings, Supplier<DynamoDbClient> client) {
        TurnStreamSettings streams = TurnStreamSettings.fromEnvironment(env);
        if (streams.table() == null || settings.conversationsTable() == null) {
            return TurnStreams.NONE; // nothing is stored: a turn is not resumable
        }
        return new TurnStreams(new DynamoTurnStreamLog(client.get(), streams.table(), streams.ttl()),
                new TurnStreams.Settings(streams.batching(), streams.readerPoll(), settings.limits().maxTurnDuration()),
                Clock.systemUTC());
    }

    /** The conversation store and the tables a draft is resolved against; {@link ConversationState#NONE} without a table. */
    public static ConversationState conversationMemory(Map<String, String> env) {
        return conversationMemory(ChatSettings.fromEnvironment(env), () -> DynamoDbClients.fromEnvironment(env));
    }

    private static ConversationState conversationMemory(ChatSettings settings, Supplier<DynamoDbClient> client) {
        if (settings.conversationsTable() == null) {
            return ConversationState.NONE;
        }
        DynamoDbClient dynamo = client.get();
        DynamoConversationStore store = new DynamoConversationStore(dynamo, settings.conversationsTable(), settings.conversationTtl());
        DynamoConfigStore configs = new DynamoConfigStore(dynamo, settings.configsTable());
        return new ConversationState(store, DynamoConversations.service(dynamo, store, configs,
                settings.userInputTable() == null ? "UserInputTable" : settings.userInputTable(), settings.previewsTable(),
                Clock.systemUTC()), configs, Clock.systemUTC());
    }

    @Override
    public void handle(JsonNode event, HttpResponseStream response) {
        handle(event, response, invocationDeadline.get(), null);
    }

    /** From the streaming runtime: the invocation's deadline bounds the turn, which stops cleanly before it. */
    @Override
    public void handle(JsonNode event, HttpResponseStream response, LambdaInvocation invocation) {
        handle(event, response, invocation.deadlineIfKnown().or(invocationDeadline), invocation.traceId());
    }

    private void handle(JsonNode event, HttpResponseStream response, Optional<Instant> deadline, String xrayTraceHeader) {
        String requestId = event.path("requestContext").path("requestId").asText(null);
        StructuredLog.put("requestId", requestId);
        // one trace for the turn and the tool invocations it makes (their envelopes carry it): X-Ray's when the Runtime
        // API gave one (the streaming runtime passes its header), else a new one (the local gateway, tests)
        TraceContext.begin(TraceContext.fromXRayHeader(xrayTraceHeader).orElseGet(TraceContext::generate));
        try {
            // The function URL has no authorizer in front: the caller is checked before the body is decoded or
            // parsed, so an anonymous caller learns nothing about the request format and costs no parsing.
            String owner = callerIdentity.apply(event);
            if (owner == null) {
                Refusals.unauthorized(response, "sign in to use the assistant");
                return;
            }
            endpoint.handle(new ChatEndpoint.Request(event.path("requestContext").path("http").path("method").asText("POST"),
                    event.path("rawPath").asText(""), FunctionUrlRequest.of(event, "POST")::body, owner), deadline, response);
        } finally {
            observer.flush();
            StructuredLog.clear();
        }
    }
}
