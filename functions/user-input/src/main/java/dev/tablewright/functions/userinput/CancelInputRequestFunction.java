package dev.tablewright.functions.userinput;

import dev.tablewright.lambda.HttpRequest;
import dev.tablewright.lambda.HttpResponse;
import dev.tablewright.userinput.InputRequestService;

import java.util.Map;

/** {@code POST /conversations/{conversationId}/input-requests/{toolCallId}/cancel}: 200, or 409 if no longer pending. */
public final class CancelInputRequestFunction extends UserInputFunction {

    public CancelInputRequestFunction() {
        super();
    }

    public CancelInputRequestFunction(InputRequestService service) {
        super(service);
    }

    @Override
    protected HttpResponse serve(HttpRequest request) {
        String conversationId = request.pathId("conversationId");
        String toolCallId = request.pathId("toolCallId");
        var cancelled = service.cancel(request.caller().ownerId(), conversationId, toolCallId);
        return HttpResponse.ok(Map.of("request", UserInputViews.request(cancelled, service.now())));
    }
}
