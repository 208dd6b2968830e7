package dev.tablewright.lambda;

import java.util.Map;
import java.util.Optional;

/**
 * Who is calling, taken only from what API Gateway attached to the event after authorising the request:
 * the JWT authorizer's {@code sub} claim, or the IAM caller's user ARN. Never from the body, a header or the
 * query string, which the caller controls.
 *
 * <p>The local stack and the tests use {@link #DEVELOPMENT_SUBJECT} ({@code dev-user}) as a JWT {@code sub}:
 * the local gateway attaches that claim to every request it forwards, as API Gateway's JWT authorizer would.
 *
 * @param ownerId the value every stored item records as {@code ownerId}
 * @param source  {@code jwt} or {@code iam}
 */
public record CallerIdentity(String ownerId, String source) {

    /** The development identity of the local stack and the tests (a JWT {@code sub}). */
    public static final String DEVELOPMENT_SUBJECT = "dev-user";

    public static Optional<CallerIdentity> from(HttpApiEvent event) {
        if (event == null || event.requestContext() == null || event.requestContext().authorizer() == null) {
            return Optional.empty();
        }
        HttpApiEvent.Authorizer authorizer = event.requestContext().authorizer();
        if (authorizer.jwt() != null) {
            Map<String, String> claims = authorizer.jwt().claims();
            String sub = claims == null ? null : claims.get("sub");
            if (sub != null && !sub.isBlank()) {
                return Optional.of(new CallerIdentity(sub, "jwt"));
            }
        }
        if (authorizer.iam() != null) {
            String arn = authorizer.iam().userArn();
            if (arn != null && !arn.isBlank()) {
                return Optional.of(new CallerIdentity(arn, "iam"));
            }
        }
        return Optional.empty();
    }
}
