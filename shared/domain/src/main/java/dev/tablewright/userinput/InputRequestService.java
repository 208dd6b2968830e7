package dev.tablewright.userinput;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.toolcontract.InputField;
import dev.tablewright.toolcontract.ValueScope;
import dev.tablewright.validation.ValidationError;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The input-request lifecycle, over the two
 * store ports. Every operation takes the caller's owner id; the handlers get it from the HTTP API's authorizer.
 */
public final class InputRequestService {

    private static final Pattern TOOL_NAME = Pattern.compile("[a-z][a-z0-9_]{0,63}");

    /**
     * @param requestTtl how long a request stays pending (default 24 h)
     * @param valuesTtl  how long a conversation and its saved values live after their last write (default 7 days)
     */
    public record Expiry(Duration requestTtl, Duration valuesTtl) {
        public static final Expiry DEFAULT = new Expiry(Duration.ofHours(24), Duration.ofDays(7));
    }

    private final InputRequestStore requests;
    private final SavedValuesStore values;
    private final Clock clock;
    private final Expiry expiry;

    public InputRequestService(InputRequestStore requests, SavedValuesStore values, Clock clock, Expiry expiry) {
        this.requests = requests;
        this.values = values;
        this.clock = clock;
        this.expiry = expiry;
    }

    public Instant now() {
        return clock.instant();
    }

    /** Opens a pending request for a tool call. */
    public InputRequest create(String ownerId, String conversationId, NewInputRequest body) {
        List<ValidationError> errors = new ArrayList<>();
        if (!dev.tablewright.id.PlainId.isValid(body.toolCallId())) {
            errors.add(new ValidationError("toolCallId", "a tool call id of 1-128 letters, digits or . _ : @ - is required"));
        }
        if (body.toolName() == null || !TOOL_NAME.matcher(body.toolName()).matches()) {
            errors.add(new ValidationError("toolName", "a snake_case tool name of at most 64 characters is required"));
        }
        if (body.reason() == null || body.reason().isBlank() || body.reason().length() > 1000) {
            errors.add(new ValidationError("reason", "a reason of 1-1000 characters is required"));
        }
        errors.addAll(InputFieldValidator.checkDefinition(body.fields(), "fields"));
        if (!errors.isEmpty()) {
            throw new InvalidInputException("the input request is not valid", errors);
        }
        Instant now = now();
        InputRequest request = new InputRequest(ownerId, conversationId, body.toolCallId(), body.toolName(), body.reason(),
                body.fields(), Boolean.TRUE.equals(body.saveForSession()), body.scope(), RequestStatus.PENDING, Map.of(),
                now, null, now.plus(expiry.requestTtl()));
        requests.create(request, now.plus(expiry.valuesTtl()));
        return request;
    }

    /** The conversation's requests with the given status as of now (all when {@code status} is empty). */
    public List<InputRequest> list(String ownerId, String conversationId, Optional<RequestStatus> status) {
        Instant now = now();
        requireConversation(ownerId, conversationId, now);
        return requests.list(ownerId, conversationId).stream()
                .filter(r -> status.isEmpty() || r.statusAt(now) == status.get())
                .toList();
    }

    /** What a successful submit did. */
    public record Submitted(InputRequest request, List<SavedValue> saved) {
    }

    /** {@link #submit(String, String, String, JsonNode, boolean)}, remembering the values where the request allows it. */
    public Submitted submit(String ownerId, String conversationId, String toolCallId, JsonNode submitted) {
        return submit(ownerId, conversationId, toolCallId, submitted, true);
    }

    /**
     * Completes a pending request with the user's values, exactly once. Bad values → {@link InvalidInputException}
     * naming each field, and nothing is written; a request no longer pending → {@link InputRequestConflictException}.
     * The values are saved for later tools when the request allows it ({@code saveForSession}) and the user did not
     * opt out ({@code remember} false: this answer is used once and not kept).
     */
    public Submitted submit(String ownerId, String conversationId, String toolCallId, JsonNode submitted, boolean remember) {
        InputRequest request = find(ownerId, conversationId, toolCallId);
        Instant now = now();
        RequestStatus status = request.statusAt(now);
        if (status != RequestStatus.PENDING) {
            throw new InputRequestConflictException(status);
        }
        InputFieldValidator.Result result = InputFieldValidator.validate(request.fields(), submitted);
        if (!result.valid()) {
            throw new InvalidInputException("some values are not valid", result.errors());
        }
        List<SavedValue> toSave = new ArrayList<>();
        if (request.saveForSession() && remember) {
            Instant valuesExpire = request.scope() == ValueScope.USER ? null : now.plus(expiry.valuesTtl());
            for (InputField f : request.fields()) {
                String value = result.values().get(f.name());
                if (value != null) {
                    toSave.add(new SavedValue(f.name(), value, f.type() == dev.tablewright.toolcontract.FieldType.SECRET,
                            request.scope(), request.toolName(), toolCallId, now, valuesExpire));
                }
            }
        }
        requests.complete(request, result.values(), toSave, now);
        InputRequest completed = new InputRequest(request.ownerId(), request.conversationId(), request.toolCallId(),
                request.toolName(), request.reason(), request.fields(), request.saveForSession(), request.scope(),
                RequestStatus.COMPLETED, result.values(), request.createdAt(), now, now.plus(expiry.valuesTtl()));
        return new Submitted(completed, toSave);
    }

    /** Cancels a pending request; otherwise {@link InputRequestConflictException} with its status. */
    public InputRequest cancel(String ownerId, String conversationId, String toolCallId) {
        InputRequest request = find(ownerId, conversationId, toolCallId);
        Instant now = now();
        RequestStatus status = request.statusAt(now);
        if (status != RequestStatus.PENDING) {
            throw new InputRequestConflictException(status);
        }
        requests.cancel(request, now);
        return new InputRequest(request.ownerId(), request.conversationId(), request.toolCallId(), request.toolName(),
                request.reason(), request.fields(), request.saveForSession(), request.scope(), RequestStatus.CANCELLED,
                Map.of(), request.createdAt(), now, now.plus(expiry.valuesTtl()));
    }

    /** The values known in a conversation (its own, then the user's). */
    public SavedValues savedValues(String ownerId, String conversationId) {
        Instant now = now();
        requireConversation(ownerId, conversationId, now);
        return values.load(ownerId, conversationId, now);
    }

    /**
     * What the executor may use in this conversation: its saved values and the user's, never a 404 (a conversation
     * that never asked for input still sees the user-scoped values). For the chat turn and the tools, not for clients.
     */
    public SavedValues knownValues(String ownerId, String conversationId) {
        return values.load(ownerId, conversationId, now());
    }

    public List<SavedValue> userValues(String ownerId) {
        return values.userValues(ownerId, now());
    }

    public void clearUserValue(String ownerId, String name) {
        if (name == null || !InputFieldValidator.FIELD_NAME.matcher(name).matches() || !values.clearUserValue(ownerId, name)) {
            throw new InputRequestNotFoundException("no saved value named " + (name == null ? "" : name));
        }
    }

    public InputRequest find(String ownerId, String conversationId, String toolCallId) {
        return requests.find(ownerId, conversationId, toolCallId)
                .orElseThrow(() -> new InputRequestNotFoundException("no input request " + toolCallId + " in conversation " + conversationId));
    }

    private void requireConversation(String ownerId, String conversationId, Instant now) {
        if (!requests.conversationExists(ownerId, conversationId, now)) {
            throw new InputRequestNotFoundException("no conversation " + conversationId);
        }
    }
}
