package dev.tablewright.lambda;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;

import java.util.List;
import java.util.Map;

/**
 * The parts of an HTTP API event (payload format 2.0) the handlers read; everything else API Gateway sends is
 * ignored. Decoded by the function itself with the Jackson it already loads: a stream handler spares the first
 * request the Lambda runtime's own event deserializer (about 700 classes of its shaded Jackson and the events
 * library).
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record HttpApiEvent(String routeKey, String rawPath, String rawQueryString, Map<String, String> headers,
                           Map<String, String> queryStringParameters, Map<String, String> pathParameters,
                           String body, @JsonProperty("isBase64Encoded") boolean isBase64Encoded,
                           RequestContext requestContext) {

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record RequestContext(String requestId, String routeKey, Http http, Authorizer authorizer) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Http(String method, String path, String sourceIp) {
    }

    /** What API Gateway's authorizer attached: a JWT's claims, or an IAM caller. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Authorizer(Jwt jwt, Iam iam) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Jwt(Map<String, String> claims, List<String> scopes) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Iam(String userArn) {
    }
}
