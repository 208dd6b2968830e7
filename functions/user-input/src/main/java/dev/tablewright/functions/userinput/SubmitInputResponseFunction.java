package dev.tablewright.functions.userinput;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.json.JsonFields;
import dev.tablewright.lambda.HttpRequest;
import dev.tablewright.lambda.HttpResponse;
import dev.tablewright.userinput.InputRequestService;

import java.util.Map;

/**
 * {@code POST /conversations/{conversationId}/input-requests/{toolCallId}/response} with {@code {"values": {...}}}
 * and optionally {@code "remember": false}: completes the request exactly once (200); bad values → 400 naming each
 * field; already completed, cancelled or expired → 409 with {@code currentStatus}.
 */
public final class SubmitInputResponseFunction extends UserInputFunction {

    /**
     * The body: the user's values, field name → value; {@code remember} false keeps a request that allows saving
     * from saving this answer (default true).
     */
    record Body(JsonNode values, Boolean remember) {
        static Body read(JsonFields body) {
            Body read = new Body(body.value("values"), body.bool("remember"));
            body.refuseUnknown(java.util.Set.of("values", "remember"));
            return read;
        }
    }

    public SubmitInputResponseFunction() {
        super();
    }

    public SubmitInputResponseFunction(InputRequestService service) {
        super(service);
    }

    @Override
    protected HttpResponse serve(HttpRequest request) {
        String conversationId = request.pathId("conversationId");
        String toolCallId = request.pathId("toolCallId");
        Body body = request.body(Body::read);
        var submitted = service.submit(request.caller().ownerId(), conversationId, toolCallId, body.values(),
                !Boolean.FALSE.equals(body.remember()));
        return HttpResponse.ok(Map.of(
                "request", UserInputViews.request(submitted.request(), service.now()),
                "saved", submitted.saved().stream().map(UserInputViews::saved).toList()));
    }
}
