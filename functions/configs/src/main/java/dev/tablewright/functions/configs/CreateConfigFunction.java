package dev.tablewright.functions.configs;

import dev.tablewright.configstore.StoredConfigJson;
import dev.tablewright.lambda.HttpRequest;
import dev.tablewright.lambda.HttpResponse;

/** {@code POST /configs} {@code {"config": {...}}}: saves a new config as version 1 (201). */
public final class CreateConfigFunction extends ConfigApiFunction {

    public CreateConfigFunction() {
        super(ConfigServices.fromEnvironment());
    }

    public CreateConfigFunction(ConfigServices services) {
        super(services);
    }

    @Override
    protected HttpResponse serve(HttpRequest request, String ownerId) {
        ConfigBody body = request.body(ConfigBody.reader(false, services.grounding().forDataSource(null)));
        return HttpResponse.created(StoredConfigJson.config(services.configs().create(ownerId, body.config(), services.clock().instant())));
    }
}
