package dev.tablewright.functions.configs;

import dev.tablewright.configstore.StoredConfigJson;
import dev.tablewright.lambda.HttpRequest;
import dev.tablewright.lambda.HttpResponse;

/**
 * {@code POST /configs/{configId}/versions/{version}/restore} {@code {"baseVersion": n}}: writes that version's
 * config as version n+1 (restoring is itself a new version; nothing in between is lost), only if the config is
 * still at n.
 */
public final class RestoreConfigVersionFunction extends ConfigApiFunction {

    public RestoreConfigVersionFunction() {
        super(ConfigServices.fromEnvironment());
    }

    public RestoreConfigVersionFunction(ConfigServices services) {
        super(services);
    }

    @Override
    protected HttpResponse serve(HttpRequest request, String ownerId) {
        String configId = request.pathId("configId");
        long from = version(request, "version");
        long base = request.body(body -> {
            body.refuseUnknown(java.util.Set.of("baseVersion"));
            return baseVersion(body);
        });
        return HttpResponse.ok(StoredConfigJson.config(services.configs().restore(ownerId, configId, base, from, services.clock().instant())));
    }
}
