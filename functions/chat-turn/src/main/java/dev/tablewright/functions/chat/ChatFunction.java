package dev.tablewright.functions.chat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.agent.AgentLoop;
import dev.tablewright.agent.TurnObserver;
import dev.tablewright.agent.conversation.ConversationMemory;
import dev.tablewright.aisdk.ChatEndpoint;
import dev.tablewright.aisdk.approval.ToolApprovals;
import dev.tablewright.agentassembly.AgentAssembly;
import dev.tablewright.door.FunctionUrlRequest;
import dev.tablewright.door.Refusals;
import dev.tablewright.door.TurnStreams;
import dev.tablewright.http.stream.HttpResponseStream;
import dev.tablewright.jwt.JwtVerifier;
import dev.tablewright.lambda.Env;
import dev.tablewright.lambda.Priming;
import dev.tablewright.lambda.streaming.LambdaInvocation;
import dev.tablewright.lambda.streaming.StreamingHandler;
import dev.tablewright.logging.StructuredLog;
import dev.tablewright.logging.TraceContext;

import java.time.Instant;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The chat function's handler (named in {@code _HANDLER}): wiring only. Its door, the AI SDK's {@link ChatEndpoint},
 * is built from the {@link AgentAssembly} (the agent, the door's stores, the tool approvals' secret), once per
 * environment; each function URL event is handed to it through the door kit's {@link FunctionUrlRequest}, the caller
 * first checked (the function URL has no authorizer: the verified JWT's subject, or a 401).
 */
public final class ChatFunction implements StreamingHandler {

    private final ChatEndpoint endpoint;
    private final Function<JsonNode, String> callerIdentity;
    private final Supplier<Optional<Instant>> invocationDeadline;
    private final TurnObserver observer;

    /** The init phase; SnapStart primes the door's wire, a JWT check and the model (nothing external is called). */
    public ChatFunction() {
        this(AgentAssembly.fromEnvironment(Env.all()), JwtVerifier.fromEnvironment(Env.all()));
        Priming.register("chat", () -> {
            ChatEndpoint.prime();
            JwtVerifier.fromEnvironment(Env.all()).prime();
            AgentAssembly.fromEnvironment(Env.all()).primeModel();
        });
    }

    /** The function over {@code agent} (its model, tools and stores), the caller the subject {@code verifier} proves. */
    public ChatFunction(AgentAssembly agent, JwtVerifier verifier) {
        this(new ChatEndpoint(agent.loop(agent.turnObserver()), agent.tools().doorStores().conversations(),
                agent.turnStreams(), ToolApprovals.of(agent.tools().doorStores().toolApprovals(), agent.tools().doorStores()::previewDecisions,
                agent.toolApprovalSecret()), Refusals::answer),
                verifier::userIdOf, Optional::empty, agent.turnObserver());
    }

    /** Every part supplied (tests, benchmarks); {@link ConversationMemory#NONE}, {@link TurnStreams#NONE}: none. */
    public ChatFunction(AgentLoop agent, ConversationMemory conversations, TurnStreams streams,
                        Function<JsonNode, String> callerIdentity, Supplier<Optional<Instant>> invocationDeadline) {
        this(new ChatEndpoint(agent, conversations, streams, ToolApprovals.NONE, Refusals::answer), callerIdentity,
                invocationDeadline, TurnObserver.NONE);
    }

    private ChatFunction(ChatEndpoint endpoint, Function<JsonNode, String> callerIdentity,
                         Supplier<Optional<Instant>> invocationDeadline, TurnObserver observer) {
        this.endpoint = endpoint;
        this.callerIdentity = callerIdentity;
        this.invocationDeadline = invocationDeadline;
        this.observer = observer; // flushed after each request: the turn's spans leave before Lambda freezes the process
    }

    @Override
    public void handle(JsonNode event, HttpResponseStream response) {
        handle(event, response, invocationDeadline.get(), null);
    }

    /** From the streaming runtime: the invocation's deadline bounds the turn. */
    @Override
    public void handle(JsonNode event, HttpResponseStream response, LambdaInvocation invocation) {
        handle(event, response, invocation.deadlineIfKnown().or(invocationDeadline), invocation.traceId());
    }

    private void handle(JsonNode event, HttpResponseStream response, Optional<Instant> deadline, String xrayTraceHeader) {
        FunctionUrlRequest request = FunctionUrlRequest.of(event, "POST");
        StructuredLog.put("requestId", request.requestId());
        TraceContext.begin(TraceContext.fromXRayHeader(xrayTraceHeader).orElseGet(TraceContext::generate)); // one per turn
        try {
            String owner = callerIdentity.apply(event); // before the body is decoded: an anonymous caller costs nothing
            if (owner == null) {
                Refusals.unauthorized(response, "sign in to use the assistant");
                return;
            }
            endpoint.handle(new ChatEndpoint.Request(request.method(), request.rawPath(), request::body, owner), deadline, response);
        } finally {
            observer.flush();
            StructuredLog.clear();
        }
    }
}
