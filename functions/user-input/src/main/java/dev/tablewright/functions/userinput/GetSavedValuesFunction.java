package dev.tablewright.functions.userinput;

import dev.tablewright.lambda.HttpRequest;
import dev.tablewright.lambda.HttpResponse;
import dev.tablewright.userinput.InputRequestService;

import java.util.Map;

/**
 * {@code GET /conversations/{conversationId}/values}: the values the executor would use in this conversation (its
 * own, and the user's where the conversation has none), secrets masked.
 */
public final class GetSavedValuesFunction extends UserInputFunction {

    public GetSavedValuesFunction() {
        super();
    }

    public GetSavedValuesFunction(InputRequestService service) {
        super(service);
    }

    @Override
    protected HttpResponse serve(HttpRequest request) {
        String conversationId = request.pathId("conversationId");
        var values = service.savedValues(request.caller().ownerId(), conversationId);
        return HttpResponse.ok(Map.of("values", values.effective().stream().map(UserInputViews::saved).toList()));
    }
}
