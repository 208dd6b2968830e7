package dev.tablewright.functions.userinput;

import dev.tablewright.lambda.HttpRequest;
import dev.tablewright.lambda.HttpResponse;
import dev.tablewright.userinput.InputRequestService;

import java.util.Map;

/** {@code GET /users/me/values}: the caller's user-scoped values (kept across conversations), secrets masked. */
public final class ListUserValuesFunction extends UserInputFunction {

    public ListUserValuesFunction() {
        super();
    }

    public ListUserValuesFunction(InputRequestService service) {
        super(service);
    }

    @Override
    protected HttpResponse serve(HttpRequest request) {
        return HttpResponse.ok(Map.of("values",
                service.userValues(request.caller().ownerId()).stream().map(UserInputViews::saved).toList()));
    }
}
