package dev.tablewright.functions.configs;

import dev.tablewright.configstore.StoredConfigJson;
import dev.tablewright.configstore.ConfigNotFoundException;
import dev.tablewright.lambda.HttpRequest;
import dev.tablewright.lambda.HttpResponse;

/** {@code GET /configs/{configId}}: the current version. */
public final class GetConfigFunction extends ConfigApiFunction {
    public GetConfigFunction() {
        super(ConfigServices.fromEnvironment());
    }

    public GetConfigFunction(ConfigServices services) {
        super(services);
    }

    @Override
    protected HttpResponse serve(HttpRequest request, String ownerId) {
        String configId = request.pathId("configId");
        return HttpResponse.ok(StoredConfigJson.config(services.configs().get(ownerId, configId)
                .orElseThrow(() -> ConfigNotFoundException.config(configId))));
    }
}
