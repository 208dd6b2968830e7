package dev.tablewright.lambda;

import dev.tablewright.configstore.InvalidCursorException;
import dev.tablewright.failure.DomainFailure;
import dev.tablewright.store.StoreUnavailableException;
import dev.tablewright.validation.ValidationError;

import java.util.List;
import java.util.Map;

/** The one mapping of a domain failure to an HTTP answer (the codes of docs/errors.md). */
public final class HttpFailures {

    private HttpFailures() {
    }

    /** @param advice appended to a conflict's message: what the client should do next */
    public static HttpResponse response(DomainFailure failure, String advice) {
        String message = failure.publicMessage();
        return switch (failure.kind()) {
            // every listing route takes its cursor as the query parameter, so the bad field is named where the client put it
            case INVALID -> answer(HttpApiException.invalid(message, failure instanceof InvalidCursorException
                    ? List.of(new ValidationError("query.cursor", message)) : failure.errors()));
            case NOT_FOUND -> answer(HttpApiException.notFound(message));
            case CONFLICT -> HttpResponse.error(409, new ApiError(failure.code().wireName(), message + advice, List.of(), failure.details()),
                    Map.of());
            case UNAVAILABLE -> HttpResponse.error(503, new ApiError("unavailable", message), Map.of("Retry-After",
                    Integer.toString(failure instanceof StoreUnavailableException s ? s.retryAfterSeconds() : 1)));
        };
    }

    private static HttpResponse answer(HttpApiException e) {
        return HttpResponse.error(e.status(), e.error(), Map.of());
    }
}
