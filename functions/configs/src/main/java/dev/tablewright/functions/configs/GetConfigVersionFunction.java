package dev.tablewright.functions.configs;

import dev.tablewright.configstore.ConfigNotFoundException;
import dev.tablewright.lambda.HttpRequest;
import dev.tablewright.lambda.HttpResponse;

/** {@code GET /configs/{configId}/versions/{version}}: one kept version, with its config. */
public final class GetConfigVersionFunction extends ConfigApiFunction {
    public GetConfigVersionFunction() {
        super(ConfigServices.fromEnvironment());
    }

    public GetConfigVersionFunction(ConfigServices services) {
        super(services);
    }

    @Override
    protected HttpResponse serve(HttpRequest request, String ownerId) {
        String configId = request.pathId("configId");
        long version = version(request, "version");
        return HttpResponse.ok(ApiViews.version(services.configs().version(ownerId, configId, version)
                .orElseThrow(() -> ConfigNotFoundException.version(configId, version))));
    }
}
