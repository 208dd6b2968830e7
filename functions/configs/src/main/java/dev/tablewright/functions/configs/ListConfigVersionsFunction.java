package dev.tablewright.functions.configs;

import dev.tablewright.configstore.ConfigNotFoundException;
import dev.tablewright.configstore.ConfigVersion;
import dev.tablewright.configstore.Page;
import dev.tablewright.lambda.HttpRequest;
import dev.tablewright.lambda.HttpResponse;

/** {@code GET /configs/{configId}/versions?limit=&cursor=}: every kept version, newest first, without bodies. */
public final class ListConfigVersionsFunction extends ConfigApiFunction {
    public ListConfigVersionsFunction() {
        super(ConfigServices.fromEnvironment());
    }

    public ListConfigVersionsFunction(ConfigServices services) {
        super(services);
    }

    @Override
    protected HttpResponse serve(HttpRequest request, String ownerId) {
        String configId = request.pathId("configId");
        Page<ConfigVersion> page = services.configs().versions(ownerId, configId, limit(request), request.query("cursor").orElse(null));
        if (page.items().isEmpty() && services.configs().get(ownerId, configId).isEmpty()) {
            throw ConfigNotFoundException.config(configId); // a config always has version 1: empty means absent
        }
        return HttpResponse.ok(ApiViews.versions(page));
    }
}
