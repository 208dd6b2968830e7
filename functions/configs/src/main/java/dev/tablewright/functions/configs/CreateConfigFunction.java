package dev.tablewright.functions.configs;

import dev.tablewright.config.TableConfig;
import dev.tablewright.lambda.HttpApiException;
import dev.tablewright.lambda.HttpRequest;
import dev.tablewright.lambda.HttpResponse;

/** {@code POST /configs} {@code {"config": {...}}}: saves a new config as version 1 (201). */
public final class CreateConfigFunction extends ConfigApiFunction {

    record Body(TableConfig config) {
    }

    public CreateConfigFunction() {
        super(ConfigServices.fromEnvironment());
    }

    public CreateConfigFunction(ConfigServices services) {
        super(services);
    }

    @Override
    protected HttpResponse serve(HttpRequest request, String ownerId) {
        Body body = request.body(Body.class);
        if (body.config() == null) {
            throw HttpApiException.invalid("config", "config is required");
        }
        return HttpResponse.created(ApiViews.config(services.configs().create(ownerId, body.config(), services.clock().instant())));
    }
}
