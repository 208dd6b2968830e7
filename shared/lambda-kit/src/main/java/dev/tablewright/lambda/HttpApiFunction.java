package dev.tablewright.lambda;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import com.fasterxml.jackson.core.JacksonException;
import dev.tablewright.json.Json;
import dev.tablewright.logging.StructuredLog;
import dev.tablewright.failure.DomainFailure;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Map;

/**
 * Base of every handler behind the HTTP API (API Gateway v2 payload). A subclass builds what it needs once,
 * in its constructor (the init phase: clients, stores), and implements {@link #handle(HttpRequest)}.
 *
 * <p>This class guarantees the error contract: the caller is taken from the authorizer (401 without one), bodies
 * over {@link #maxBodyBytes()} and malformed or mistyped JSON are 400s naming the field, {@link HttpApiException}s
 * become their status, a {@link DomainFailure} becomes the answer of its kind ({@link HttpFailures}: a 503 with
 * {@code Retry-After} for an unavailable store), and anything else becomes a bare 500: a stack trace goes to the log, never into a response.
 *
 * <p>A stream handler: the event is decoded into {@link HttpApiEvent} and the answer written with the function's
 * own Jackson, so the first request does not load the Lambda runtime's POJO serialization.
 */
public abstract class HttpApiFunction implements RequestStreamHandler {

    /** Default body limit: forms and configs are small; anything bigger is a mistake or an attack. */
    public static final int DEFAULT_MAX_BODY_BYTES = 64 * 1024;

    private static final StructuredLog LOG = StructuredLog.of(HttpApiFunction.class);

    {
        // SnapStart: answer one request before the snapshot. It carries no caller, so it ends in the 401 of
        // respond() before any store is touched: the event model, the error path and Jackson's writer are warmed.
        Priming.register(getClass().getSimpleName(), () -> {
            try {
                handleRequest(new java.io.ByteArrayInputStream(PRIMING_EVENT), new java.io.ByteArrayOutputStream(), null);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e); // in-memory streams: cannot happen
            }
        });
    }

    private static final byte[] PRIMING_EVENT = "{\"routeKey\":\"GET /priming\",\"rawPath\":\"/priming\",\"requestContext\":{\"requestId\":\"priming\"}}"
            .getBytes(java.nio.charset.StandardCharsets.UTF_8);

    @Override
    public final void handleRequest(InputStream input, OutputStream output, Context context) throws IOException {
        HttpApiEvent event;
        try {
            event = Json.MAPPER.readValue(input, HttpApiEvent.class);
        } catch (JacksonException e) {
            event = null; // answered as a 400 below: API Gateway never sends this
        }
        HttpResponse response = respond(event, context);
        byte[] bytes;
        try {
            bytes = response.toLambdaResponse();
        } catch (RuntimeException e) {
            LOG.error("response could not be written", e);
            bytes = HttpResponse.error(500, new ApiError("internal", "internal error"), Map.of()).toLambdaResponse();
        }
        output.write(bytes);
    }

    /** The answer before it is written as the Lambda response (tests and benchmarks read it here). */
    public final HttpResponse respond(HttpApiEvent event, Context context) {
        try (StructuredLog.Scope ignored = StructuredLog.scope()) {
            return respondInScope(event, context);
        }
    }

    private HttpResponse respondInScope(HttpApiEvent event, Context context) {
        StructuredLog.put("requestId", context != null ? context.getAwsRequestId()
                : event != null && event.requestContext() != null ? event.requestContext().requestId() : null);
        StructuredLog.put("route", event != null ? event.routeKey() : null);
        try {
            if (event == null) {
                throw HttpApiException.badRequest("invalid_request", "no event");
            }
            CallerIdentity caller = CallerIdentity.from(event).orElseThrow(HttpApiException::unauthenticated);
            if (event.pathParameters() != null && event.pathParameters().containsKey("conversationId")) {
                StructuredLog.put("conversationId", event.pathParameters().get("conversationId"));
            }
            return handle(new HttpRequest(event, caller, maxBodyBytes()));
        } catch (HttpApiException e) {
            if (e.status() >= 500) {
                LOG.warn("request failed", "status", e.status(), "code", e.error().code());
            }
            return HttpResponse.error(e.status(), e.error(), Map.of());
        } catch (DomainFailure e) {
            if (e.kind() == DomainFailure.Kind.UNAVAILABLE) {
                LOG.warn("dependency unavailable", "cause", e.getCause() == null ? e.getMessage() : e.getCause().getClass().getSimpleName());
            }
            return HttpFailures.response(e, advice(e));
        } catch (RuntimeException | StackOverflowError e) {
            LOG.error("unexpected failure", e);
            return HttpResponse.error(500, new ApiError("internal", "internal error"), Map.of());
        }
    }

    protected abstract HttpResponse handle(HttpRequest request);

    /** Appended to a conflict's message: what the client of this route should do next. */
    protected String advice(DomainFailure failure) {
        return "";
    }

    protected int maxBodyBytes() {
        return DEFAULT_MAX_BODY_BYTES;
    }
}
