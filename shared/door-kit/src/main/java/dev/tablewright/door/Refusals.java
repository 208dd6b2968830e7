package dev.tablewright.door;

import dev.tablewright.failure.DomainFailure;
import dev.tablewright.failure.ErrorCode;
import dev.tablewright.http.stream.HttpResponseStream;
import dev.tablewright.json.Json;
import dev.tablewright.lambda.HttpFailures;
import dev.tablewright.lambda.HttpResponse;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A door's refusals before its stream starts, in the one shape every function answers
 * ({@code {"error": {"code", "message", "fields"?}}}, docs/errors.md): a {@link DomainFailure} as {@link HttpFailures}
 * answers it, and the refusals of the transport itself (no caller, a method the route does not take, the store out
 * of reach), each with its {@link ErrorCode}.
 */
public final class Refusals {

    private Refusals() {
    }

    /** A refusal before the stream starts: status, headers and body as {@link HttpFailures} answers it for every function. */
    public static void answer(HttpResponseStream response, DomainFailure failure) {
        String advice = failure.kind() == DomainFailure.Kind.CONFLICT ? " Wait for the running turn to end, then send the message again." : "";
        HttpResponse answer = HttpFailures.response(failure, advice);
        Map<String, String> headers = new LinkedHashMap<>(answer.headers());
        headers.put("content-type", "application/json");
        response.start(answer.status(), headers);
        response.write(Json.write(answer.body()).getBytes(StandardCharsets.UTF_8));
        response.flush();
        response.close();
    }

    /** 401: the function URL has no authorizer, and the request proves no caller. */
    public static void unauthorized(HttpResponseStream response, String message) {
        send(response, 401, Map.of(), ErrorCode.UNAUTHENTICATED, message);
    }

    /** 405: the route takes only {@code allowed}. */
    public static void methodNotAllowed(HttpResponseStream response, String allowed) {
        send(response, 405, Map.of(), ErrorCode.METHOD_NOT_ALLOWED, allowed + " only");
    }

    /** 503 with Retry-After: the store a door needs cannot be reached. */
    public static void unavailable(HttpResponseStream response) {
        send(response, 503, Map.of("retry-after", "1"), ErrorCode.UNAVAILABLE,
                "The assistant's store is unavailable; try again shortly.");
    }

    private static void send(HttpResponseStream response, int status, Map<String, String> extra, ErrorCode code, String message) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("content-type", "application/json");
        headers.putAll(extra);
        response.start(status, headers);
        response.write(Json.write(Json.object().set("error", Json.object().put("code", code.wireName()).put("message", message)))
                .getBytes(StandardCharsets.UTF_8));
        response.flush();
        response.close();
    }
}
