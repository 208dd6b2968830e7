package dev.tablewright.functions.agui;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.agent.TurnObserver;
import dev.tablewright.agui.AgUiEndpoint;
import dev.tablewright.agentassembly.AgentAssembly;
import dev.tablewright.toolassembly.DoorStores;
import dev.tablewright.door.DecisionLedger;
import dev.tablewright.door.FunctionUrlRequest;
import dev.tablewright.door.Refusals;
import dev.tablewright.http.stream.HttpResponseStream;
import dev.tablewright.jwt.JwtVerifier;
import dev.tablewright.lambda.Env;
import dev.tablewright.lambda.Priming;
import dev.tablewright.lambda.streaming.LambdaInvocation;
import dev.tablewright.lambda.streaming.StreamingHandler;
import dev.tablewright.logging.StructuredLog;
import dev.tablewright.logging.TraceContext;

import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Function;

/**
 * The AG-UI door's handler (named in {@code _HANDLER}): wiring only. Its door, {@link AgUiEndpoint}, is built from the
 * {@link AgentAssembly} (the agent, the door's stores), once per environment; each function URL event is handed to it
 * through the door kit's {@link FunctionUrlRequest}, the caller first checked (the function URL has no authorizer:
 * the verified JWT's subject, or a 401).
 */
public final class AgUiFunction implements StreamingHandler {

    private final AgUiEndpoint endpoint;
    private final Function<JsonNode, String> callerIdentity;
    private final TurnObserver observer;

    /** The init phase; SnapStart primes the door's wire, a JWT check and the model (nothing external is called). */
    public AgUiFunction() {
        this(AgentAssembly.fromEnvironment(Env.all()), JwtVerifier.fromEnvironment(Env.all()));
        Priming.register("agui", () -> {
            AgUiEndpoint.prime();
            JwtVerifier.fromEnvironment(Env.all()).prime();
            AgentAssembly.fromEnvironment(Env.all()).primeModel();
        });
    }

    /** The function over {@code agent} (its model, tools and stores), the caller the subject {@code verifier} proves. */
    public AgUiFunction(AgentAssembly agent, JwtVerifier verifier) {
        this(endpoint(agent), verifier::userIdOf, agent.turnObserver());
    }

    private static AgUiEndpoint endpoint(AgentAssembly agent) {
        DoorStores stores = agent.tools().doorStores();
        String inputs = stores.tables().userInput();
        return new AgUiEndpoint(agent.loop(agent.turnObserver()), stores.conversations(), agent.turnStreams(),
                !stores.conversations().stores() ? AgUiEndpoint.Decisions.NONE
                        : new AgUiEndpoint.Decisions(stores.previews(), DecisionLedger.of(stores.toolApprovals(), stores::previewDecisions),
                        inputs == null ? null : agent.tools().inputRequests(inputs)), Clock.systemUTC());
    }

    private AgUiFunction(AgUiEndpoint endpoint, Function<JsonNode, String> callerIdentity, TurnObserver observer) {
        this.endpoint = endpoint;
        this.callerIdentity = callerIdentity;
        this.observer = observer; // flushed after each request: the turn's spans leave before Lambda freezes the process
    }

    @Override
    public void handle(JsonNode event, HttpResponseStream response) {
        handle(event, response, Optional.empty(), null);
    }

    /** From the streaming runtime: the invocation's deadline bounds the turn. */
    @Override
    public void handle(JsonNode event, HttpResponseStream response, LambdaInvocation invocation) {
        handle(event, response, invocation.deadlineIfKnown(), invocation.traceId());
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
            endpoint.handle(request.method(), request.rawPath(), request::body, owner, deadline, response);
        } finally {
            observer.flush();
            StructuredLog.clear();
        }
    }
}
