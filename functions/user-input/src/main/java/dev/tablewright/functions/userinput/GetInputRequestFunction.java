package dev.tablewright.functions.userinput;

import dev.tablewright.lambda.HttpRequest;
import dev.tablewright.lambda.HttpResponse;
import dev.tablewright.userinput.InputRequestService;

import java.util.Map;

/**
 * {@code GET /conversations/{conversationId}/input-requests/{toolCallId}}: one request with its status as of now
 * (a reloaded page shows its card again); submitted secrets masked.
 */
public final class GetInputRequestFunction extends UserInputFunction {

    public GetInputRequestFunction() {
        super();
    }

    public GetInputRequestFunction(InputRequestService service) {
        super(service);
    }

    @Override
    protected HttpResponse serve(HttpRequest request) {
        String conversationId = request.pathId("conversationId");
        String toolCallId = request.pathId("toolCallId");
        var found = service.find(request.caller().ownerId(), conversationId, toolCallId);
        return HttpResponse.ok(Map.of("request", UserInputViews.request(found, service.now())));
    }
}
