package dev.tablewright.functions.userinput;

import dev.tablewright.lambda.HttpApiException;
import dev.tablewright.lambda.HttpRequest;
import dev.tablewright.lambda.HttpResponse;
import dev.tablewright.userinput.InputRequestService;
import dev.tablewright.userinput.RequestStatus;

import java.util.Map;
import java.util.Optional;

/**
 * {@code GET /conversations/{conversationId}/input-requests?status=pending}: the conversation's requests with that
 * status (default {@code pending}; {@code all} for every one).
 */
public final class ListInputRequestsFunction extends UserInputFunction {

    public ListInputRequestsFunction() {
        super();
    }

    public ListInputRequestsFunction(InputRequestService service) {
        super(service);
    }

    @Override
    protected HttpResponse serve(HttpRequest request) {
        String conversationId = request.pathId("conversationId");
        String status = request.query("status").orElse("pending");
        Optional<RequestStatus> filter;
        try {
            filter = status.equals("all") ? Optional.empty() : Optional.of(RequestStatus.fromWire(status));
        } catch (IllegalArgumentException e) {
            throw HttpApiException.invalid("query.status", "status must be pending, completed, cancelled, expired or all");
        }
        var now = service.now();
        var views = service.list(request.caller().ownerId(), conversationId, filter).stream()
                .map(r -> UserInputViews.request(r, now)).toList();
        return HttpResponse.ok(Map.of("requests", views));
    }
}
