package dev.tablewright.userinput;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.tablewright.tool.InputField;
import dev.tablewright.tool.ValueScope;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An input request as every API answer shows it: status as of now, and submitted values with secrets masked.
 * {@code requestId} is {@code <conversationId>/<toolCallId>}, the pair that names a request.
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record InputRequestView(String requestId, String conversationId, String toolCallId, String toolName, String reason,
                               List<InputField> fields, boolean saveForSession, ValueScope scope, RequestStatus status,
                               Map<String, String> values, String createdAt, String completedAt, String expiresAt) {

    /** What a secret's value reads as in every answer. */
    public static final String MASK = "********";

    /** Instants as ISO-8601 text (the one mapper has no java.time module: fewer classes at cold start). */
    static String text(Instant instant) {
        return instant == null ? null : instant.toString();
    }

    public static InputRequestView of(InputRequest r, Instant now) {
        Map<String, String> masked = new LinkedHashMap<>();
        r.values().forEach((name, value) -> masked.put(name, r.isSecret(name) ? MASK : value));
        return new InputRequestView(r.conversationId() + "/" + r.toolCallId(), r.conversationId(), r.toolCallId(),
                r.toolName(), r.reason(), r.fields(), r.saveForSession(), r.scope(), r.statusAt(now), masked,
                text(r.createdAt()), text(r.completedAt()), text(r.expiresAt()));
    }
}
