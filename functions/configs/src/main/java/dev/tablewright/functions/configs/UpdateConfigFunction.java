package dev.tablewright.functions.configs;

import dev.tablewright.configstore.StoredConfigJson;
import dev.tablewright.lambda.HttpRequest;
import dev.tablewright.lambda.HttpResponse;

/**
 * {@code PUT /configs/{configId}} {@code {"baseVersion": n, "config": {...}}}: the user's own edit, saved as version
 * n+1 only if the config is still at n (409 {@code version_conflict} otherwise). Nothing is overwritten.
 */
public final class UpdateConfigFunction extends ConfigApiFunction {

    public UpdateConfigFunction() {
        super(ConfigServices.fromEnvironment());
    }

    public UpdateConfigFunction(ConfigServices services) {
        super(services);
    }

    @Override
    protected HttpResponse serve(HttpRequest request, String ownerId) {
        String configId = request.pathId("configId");
        ConfigBody body = request.body(ConfigBody.reader(true, services.grounding().forDataSource(null)));
        return HttpResponse.ok(StoredConfigJson.config(services.configs().update(ownerId, configId, body.baseVersion(), body.config(),
                services.clock().instant())));
    }
}
