package dev.tablewright.functions.userinput;

import dev.tablewright.dynamodb.DynamoDbClients;
import dev.tablewright.dynamodb.DynamoDbInputRequestStore;
import dev.tablewright.dynamodb.DynamoDbSavedValuesStore;
import dev.tablewright.lambda.Env;
import dev.tablewright.lambda.HttpApiFunction;
import dev.tablewright.lambda.HttpRequest;
import dev.tablewright.lambda.HttpResponse;
import dev.tablewright.userinput.InputRequestService;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

import java.time.Clock;
import java.time.Duration;

/**
 * Base of the user-input handlers: builds the lifecycle service once, at init, from the environment
 * ({@code USER_INPUT_TABLE}, {@code DYNAMODB_ENDPOINT}, {@code INPUT_REQUEST_TTL_HOURS} default 24,
 * {@code SAVED_VALUES_TTL_DAYS} default 7), and maps the lifecycle's outcomes to HTTP: invalid → 400 naming
 * each field, not found (or not the caller's) → 404, no longer pending → 409 with {@code currentStatus}.
 */
public abstract class UserInputFunction extends HttpApiFunction {

    protected final InputRequestService service;

    protected UserInputFunction() {
        this(fromEnvironment());
    }

    protected UserInputFunction(InputRequestService service) {
        this.service = service;
    }

    /** The service as a deployed function builds it (also what the local stack uses, after {@link Env#override}). */
    public static InputRequestService fromEnvironment() {
        UserInputSettings settings = UserInputSettings.fromEnvironment();
        return service(DynamoDbClients.fromEnvironment(Env.all()), settings.table(), settings.expiry(), Clock.systemUTC());
    }

    public static InputRequestService service(DynamoDbClient client, String table, InputRequestService.Expiry expiry, Clock clock) {
        return new InputRequestService(new DynamoDbInputRequestStore(client, table, expiry.valuesTtl()),
                new DynamoDbSavedValuesStore(client, table), clock, expiry);
    }

    @Override
    protected final HttpResponse handle(HttpRequest request) {
        return serve(request);
    }

    protected abstract HttpResponse serve(HttpRequest request);
}
