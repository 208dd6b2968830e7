package dev.tablewright.functions.userinput;

import dev.tablewright.toolcontract.InputFieldJson;
import dev.tablewright.json.JsonFields;
import dev.tablewright.toolcontract.ValueScope;
import dev.tablewright.userinput.NewInputRequest;

import java.util.Set;

/**
 * The body of "create an input request", read strictly into a {@link NewInputRequest}: every value of the wrong JSON
 * type and every unknown field, at every level, is named in one 400. What the values may be (names, patterns,
 * ranges) is {@code InputRequestService}'s to check after.
 */
final class NewInputRequestBody {

    private static final Set<String> REQUEST_KEYS = Set.of("toolName", "toolCallId", "reason", "fields", "saveForSession", "scope");

    private NewInputRequestBody() {
    }

    static NewInputRequest read(JsonFields body) {
        NewInputRequest request = new NewInputRequest(body.text("toolName"), body.text("toolCallId"), body.text("reason"),
                body.objects("fields", field -> InputFieldJson.read(field, true)), body.bool("saveForSession"),
                body.parsed("scope", ValueScope::fromWire));
        body.refuseUnknown(REQUEST_KEYS);
        return request;
    }
}
