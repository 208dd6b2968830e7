package dev.tablewright.functions.configs;

import dev.tablewright.configstore.StoredConfigJson;
import dev.tablewright.lambda.HttpRequest;
import dev.tablewright.lambda.HttpResponse;

/** {@code GET /configs?limit=&cursor=}: the caller's configs, oldest first, a page at a time. */
public final class ListConfigsFunction extends ConfigApiFunction {
    public ListConfigsFunction() {
        super(ConfigServices.fromEnvironment());
    }

    public ListConfigsFunction(ConfigServices services) {
        super(services);
    }

    @Override
    protected HttpResponse serve(HttpRequest request, String ownerId) {
        return HttpResponse.ok(StoredConfigJson.page(services.configs().list(ownerId, limit(request), request.query("cursor").orElse(null))));
    }
}
