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
        DynamoDbClient client = DynamoDbClients.fromEnvironment(Env.all());
        String table = Env.require("USER_INPUT_TABLE");
        InputRequestService.Expiry expiry = new InputRequestService.Expiry(
                Duration.ofHours(positive("INPUT_REQUEST_TTL_HOURS", Env.get("INPUT_REQUEST_TTL_HOURS"), 24)),
                Duration.ofDays(positive("SAVED_VALUES_TTL_DAYS", Env.get("SAVED_VALUES_TTL_DAYS"), 7)));
        return service(client, table, expiry, Clock.systemUTC());
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

    private static long positive(String name, String value, long fallback) {
        if (value == null) {
            return fallback;
        }
        try {
            long n = Long.parseLong(value.trim());
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // fall through
        }
        throw new IllegalStateException("environment variable " + name + " must be a positive whole number");
    }
}
