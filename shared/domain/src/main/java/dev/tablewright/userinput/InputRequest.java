package dev.tablewright.userinput;

import dev.tablewright.toolcontract.InputField;
import dev.tablewright.toolcontract.ValueScope;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * A tool call waiting for (or answered by) the user: one per conversation and tool call id.
 *
 * @param values the submitted values (normalised to strings), empty until completed; secrets included, so this
 *               record never goes to a client as it is: the input-request API masks them
 */
public record InputRequest(String ownerId, String conversationId, String toolCallId, String toolName, String reason,
                           List<InputField> fields, boolean saveForSession, ValueScope scope, RequestStatus status,
                           Map<String, String> values, Instant createdAt, Instant completedAt, Instant expiresAt) {

    public InputRequest {
        fields = fields == null ? List.of() : List.copyOf(fields);
        values = values == null ? Map.of() : Map.copyOf(values);
        scope = scope == null ? ValueScope.CONVERSATION : scope;
    }

    /** The status as of {@code now}: a pending request past its expiry reads as expired (TTL deletion is lazy). */
    public RequestStatus statusAt(Instant now) {
        return status == RequestStatus.PENDING && !now.isBefore(expiresAt) ? RequestStatus.EXPIRED : status;
    }

    public boolean isSecret(String fieldName) {
        return fields.stream().anyMatch(f -> f.name().equals(fieldName) && f.type() == dev.tablewright.toolcontract.FieldType.SECRET);
    }
}
