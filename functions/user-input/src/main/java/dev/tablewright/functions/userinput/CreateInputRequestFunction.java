package dev.tablewright.functions.userinput;

import dev.tablewright.lambda.HttpRequest;
import dev.tablewright.lambda.HttpResponse;
import dev.tablewright.userinput.InputRequestService;
import dev.tablewright.userinput.NewInputRequest;

import java.util.Map;

/** {@code POST /conversations/{conversationId}/input-requests}: a tool call needs the user's input → 201. */
public final class CreateInputRequestFunction extends UserInputFunction {

    public CreateInputRequestFunction() {
        super();
    }

    public CreateInputRequestFunction(InputRequestService service) {
        super(service);
    }

    @Override
    protected HttpResponse serve(HttpRequest request) {
        String conversationId = request.pathId("conversationId");
        NewInputRequest body = request.body(NewInputRequestBody::read);
        var created = service.create(request.caller().ownerId(), conversationId, body);
        return HttpResponse.created(Map.of("request", UserInputViews.request(created, service.now())));
    }
}
