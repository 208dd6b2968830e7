package dev.tablewright.localstack.local;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import dev.tablewright.json.Json;

import java.util.LinkedHashMap;
import java.util.Map;

/** Answers with what it received: route key, path parameters, query, body, the authorizer's subject. */
public final class EchoRouteHandler implements RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse> {

    @Override
    public APIGatewayV2HTTPResponse handleRequest(APIGatewayV2HTTPEvent event, Context context) {
        Map<String, Object> echo = new LinkedHashMap<>();
        echo.put("routeKey", event.getRouteKey());
        echo.put("pathParameters", event.getPathParameters());
        echo.put("query", event.getQueryStringParameters());
        echo.put("body", event.getBody());
        var authorizer = event.getRequestContext().getAuthorizer();
        echo.put("sub", authorizer == null || authorizer.getJwt() == null ? null : authorizer.getJwt().getClaims().get("sub"));
        echo.put("requestId", context.getAwsRequestId());
        try {
            return APIGatewayV2HTTPResponse.builder().withStatusCode(201)
                    .withHeaders(Map.of("content-type", "application/json", "x-echo", "yes"))
                    .withBody(Json.MAPPER.writeValueAsString(echo)).build();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
