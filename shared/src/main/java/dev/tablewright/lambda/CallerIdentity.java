package dev.tablewright.lambda;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;

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

    public static Optional<CallerIdentity> from(APIGatewayV2HTTPEvent event) {
        if (event == null || event.getRequestContext() == null || event.getRequestContext().getAuthorizer() == null) {
            return Optional.empty();
        }
        APIGatewayV2HTTPEvent.RequestContext.Authorizer authorizer = event.getRequestContext().getAuthorizer();
        if (authorizer.getJwt() != null) {
            Map<String, String> claims = authorizer.getJwt().getClaims();
            String sub = claims == null ? null : claims.get("sub");
            if (sub != null && !sub.isBlank()) {
                return Optional.of(new CallerIdentity(sub, "jwt"));
            }
        }
        if (authorizer.getIam() != null) {
            String arn = authorizer.getIam().getUserArn();
            if (arn != null && !arn.isBlank()) {
                return Optional.of(new CallerIdentity(arn, "iam"));
            }
        }
        return Optional.empty();
    }
}
