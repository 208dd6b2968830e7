package dev.tablewright.functions.userinput;

import dev.tablewright.lambda.HttpRequest;
import dev.tablewright.lambda.HttpResponse;
import dev.tablewright.userinput.InputRequestService;

/** {@code DELETE /users/me/values/{name}}: forgets one user-scoped value → 204; 404 if there is none. */
public final class ClearUserValueFunction extends UserInputFunction {

    public ClearUserValueFunction() {
        super();
    }

    public ClearUserValueFunction(InputRequestService service) {
        super(service);
    }

    @Override
    protected HttpResponse serve(HttpRequest request) {
        service.clearUserValue(request.caller().ownerId(), request.pathId("name"));
        return HttpResponse.noContent();
    }
}
