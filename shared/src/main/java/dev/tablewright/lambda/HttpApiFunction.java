package dev.tablewright.lambda;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import dev.tablewright.logging.StructuredLog;
import dev.tablewright.store.StoreUnavailableException;

import java.util.Map;

/**
 * Base of every handler behind the HTTP API (API Gateway v2 payload). A subclass builds what it needs once,
 * in its constructor (the init phase: clients, stores), and implements {@link #handle(HttpRequest)}.
 *
 * <p>This class guarantees the error contract: the caller is taken from the authorizer (401 without one), bodies
 * over {@link #maxBodyBytes()} and malformed or mistyped JSON are 400s naming the field, {@link HttpApiException}s
 * become their status, {@link StoreUnavailableException} becomes 503 with {@code Retry-After}, and anything else
 * becomes a bare 500: a stack trace goes to the log, never into a response.
 */
public abstract class HttpApiFunction implements RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse> {

    /** Default body limit: forms and configs are small; anything bigger is a mistake or an attack. */
    public static final int DEFAULT_MAX_BODY_BYTES = 64 * 1024;

    private static final StructuredLog LOG = StructuredLog.of(HttpApiFunction.class);

    {
        // SnapStart: answer one request before the snapshot. It carries no caller, so it ends in the 401 of
        // respond() before any store is touched: the event model, the error path and Jackson's writer are warmed.
        Priming.register(getClass().getSimpleName(), () -> {
            APIGatewayV2HTTPEvent probe = new APIGatewayV2HTTPEvent();
            probe.setRouteKey("GET /priming");
            probe.setRequestContext(new APIGatewayV2HTTPEvent.RequestContext());
            handleRequest(probe, null);
        });
    }

    @Override
    public final APIGatewayV2HTTPResponse handleRequest(APIGatewayV2HTTPEvent event, Context context) {
        HttpResponse response = respond(event, context);
        try {
            return response.toEvent();
        } catch (RuntimeException e) {
            LOG.error("response could not be written", e);
            return HttpResponse.error(500, new ApiError("internal", "internal error"), Map.of()).toEvent();
        }
    }

    /** The answer before it is turned into the Lambda response type (tests and the local gateway read it here). */
    public final HttpResponse respond(APIGatewayV2HTTPEvent event, Context context) {
        StructuredLog.clear();
        StructuredLog.put("requestId", context != null ? context.getAwsRequestId()
                : event != null && event.getRequestContext() != null ? event.getRequestContext().getRequestId() : null);
        StructuredLog.put("route", event != null ? event.getRouteKey() : null);
        try {
            if (event == null) {
                throw HttpApiException.badRequest("invalid_request", "no event");
            }
            CallerIdentity caller = CallerIdentity.from(event).orElseThrow(HttpApiException::unauthenticated);
            if (event.getPathParameters() != null && event.getPathParameters().containsKey("conversationId")) {
                StructuredLog.put("conversationId", event.getPathParameters().get("conversationId"));
            }
            return handle(new HttpRequest(event, caller, maxBodyBytes()));
        } catch (HttpApiException e) {
            if (e.status() >= 500) {
                LOG.warn("request failed", "status", e.status(), "code", e.error().code());
            }
            return HttpResponse.error(e.status(), e.error(), Map.of());
        } catch (StoreUnavailableException e) {
            LOG.warn("state store unavailable", "cause", e.getCause() == null ? e.getMessage() : e.getCause().getClass().getSimpleName());
            return HttpResponse.error(503, new ApiError("unavailable", "the service is busy or unreachable; retry later"),
                    Map.of("Retry-After", Integer.toString(e.retryAfterSeconds())));
        } catch (RuntimeException | StackOverflowError e) {
            LOG.error("unexpected failure", e);
            return HttpResponse.error(500, new ApiError("internal", "internal error"), Map.of());
        } finally {
            StructuredLog.clear();
        }
    }

    protected abstract HttpResponse handle(HttpRequest request);

    protected int maxBodyBytes() {
        return DEFAULT_MAX_BODY_BYTES;
    }
}
