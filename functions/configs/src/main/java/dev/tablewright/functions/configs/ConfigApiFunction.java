package dev.tablewright.functions.configs;

import dev.tablewright.failure.DomainFailure;
import dev.tablewright.configstore.VersionConflictException;
import dev.tablewright.json.JsonFields;
import dev.tablewright.lambda.HttpApiException;
import dev.tablewright.lambda.HttpApiFunction;
import dev.tablewright.lambda.HttpRequest;
import dev.tablewright.lambda.HttpResponse;


/**
 * Base of the config and preview routes: the stores' failures as the API's answers.
 * <ul>
 *   <li>absent, or another owner's → 404 {@code not_found} (the same answer either way);</li>
 *   <li>the config moved past the version a change was built on → 409 {@code version_conflict} with
 *       {@code currentVersion} (for a preview: preview again on the current version);</li>
 *   <li>a preview already accepted, rejected or expired → 409 {@code preview_not_pending} with {@code currentStatus};</li>
 *   <li>a name another config has → 409 {@code name_taken}; a config that cannot be stored → 400 naming the field.</li>
 * </ul>
 * A DynamoDB fault is {@link HttpApiFunction}'s 503 with Retry-After.
 */
abstract class ConfigApiFunction extends HttpApiFunction {

    /** Configs are stored up to 300 KB; the body around one is small. */
    static final int MAX_BODY_BYTES = 400 * 1024;

    protected final ConfigServices services;

    protected ConfigApiFunction(ConfigServices services) {
        this.services = services;
    }

    @Override
    protected final HttpResponse handle(HttpRequest request) {
        return serve(request, request.caller().ownerId());
    }

    protected abstract HttpResponse serve(HttpRequest request, String ownerId);

    @Override
    protected final String advice(DomainFailure failure) {
        return failure instanceof VersionConflictException ? conflictAdvice() : "";
    }

    /** What the client should do after a version conflict on this route. */
    protected String conflictAdvice() {
        return "; reload the config and apply the change to the current version";
    }

    @Override
    protected int maxBodyBytes() {
        return MAX_BODY_BYTES;
    }

    /** A positive whole number from a route parameter, or 400 naming it. */
    static long version(HttpRequest request, String name) {
        String raw = request.pathId(name);
        try {
            long v = Long.parseLong(raw);
            if (v >= 1) {
                return v;
            }
        } catch (NumberFormatException e) {
            // answered below
        }
        throw HttpApiException.invalid("path." + name, "route parameter '" + name + "' must be a version number (1, 2, ...)");
    }

    /** The {@code limit} query parameter: 1..100, default 25. */
    static int limit(HttpRequest request) {
        return request.pageLimit();
    }

    /** The required body field {@code baseVersion}: the version a change builds on, a whole number of 1 or more. */
    static Long baseVersion(JsonFields body) {
        if (!body.has("baseVersion")) {
            body.problem("baseVersion", "baseVersion is required: the version this change builds on");
            return null;
        }
        Long value = body.integer("baseVersion");
        if (value != null && value < 1) {
            body.problem("baseVersion", "baseVersion must be 1 or more, got " + value);
            return null;
        }
        return value;
    }
}
