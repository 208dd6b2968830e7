package dev.tablewright.door;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.failure.DomainFailure;
import dev.tablewright.logging.StructuredLog;
import dev.tablewright.store.StoreUnavailableException;
import dev.tablewright.toolcontract.FieldType;
import dev.tablewright.toolcontract.UserInputRequirement;
import dev.tablewright.toolcontract.ValueScope;
import dev.tablewright.userinput.InputFieldValidator;
import dev.tablewright.userinput.InputRequest;
import dev.tablewright.userinput.InputRequestConflictException;
import dev.tablewright.userinput.InputRequestNotFoundException;
import dev.tablewright.userinput.InputRequestService;
import dev.tablewright.userinput.InvalidInputException;
import dev.tablewright.userinput.NewInputRequest;
import dev.tablewright.userinput.RequestStatus;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A user's answers to the forms tools ask ({@link Deferral.UserAnswers}), settled the one way for every door: an
 * answer is taken by its input request's id, checked against the form as
 * {@code POST /conversations/{id}/input-requests/{requestId}/response} checks it, and stored once (or the request
 * declined once); a copy of the answer that settled it is told from a conflicting one, and the resumed call reads the
 * stored values. Each door only reads its answers off its wire and writes the outcomes on it.
 */
public final class FormAnswers {

    /** What became of an answer. */
    public sealed interface Settled {

        /** Stored now: the call resumes with these values. */
        record Taken(Map<String, String> values) implements Settled {
        }

        /** Declined now: the request is cancelled and nothing is stored. */
        record Declined() implements Settled {
        }

        /**
         * The same answer settled the request before (a retry, a second tab): that first outcome stands and nothing is
         * written again; {@code failure} is what a door that takes no repeat reports.
         */
        record Repeat(InputRequestConflictException failure) implements Settled {
        }

        /** Values that do not fit the form: nothing is stored. */
        record Invalid(InvalidInputException failure) implements Settled {
        }

        /** The request was settled otherwise before (answered differently, declined, expired): nothing changes. */
        record Conflict(InputRequestConflictException failure) implements Settled {
        }

        /** No request by that id for this user and conversation. */
        record Unknown(InputRequestNotFoundException failure) implements Settled {
        }
    }

    private static final StructuredLog LOG = StructuredLog.of(FormAnswers.class);

    private final InputRequestService requests;

    public FormAnswers(InputRequestService requests) {
        this.requests = requests;
    }

    /**
     * The user's values for request {@code requestId}, kept for later tools where the form allows it and
     * {@code remember} does not opt out.
     */
    public Settled answer(String ownerId, String conversationId, String requestId, JsonNode values, boolean remember) {
        try {
            return new Settled.Taken(requests.submit(ownerId, conversationId, requestId, values, remember).request().values());
        } catch (InvalidInputException e) {
            return new Settled.Invalid(e);
        } catch (InputRequestNotFoundException e) {
            return new Settled.Unknown(e);
        } catch (InputRequestConflictException e) {
            InputRequest settled = requests.find(ownerId, conversationId, requestId);
            boolean same = e.currentStatus() == RequestStatus.COMPLETED
                    && InputFieldValidator.validate(settled.fields(), values).values().equals(settled.values());
            return same ? new Settled.Repeat(e) : new Settled.Conflict(e);
        }
    }

    /** The user declined request {@code requestId} (or it is withdrawn unanswered). */
    public Settled decline(String ownerId, String conversationId, String requestId) {
        try {
            requests.cancel(ownerId, conversationId, requestId);
            return new Settled.Declined();
        } catch (InputRequestNotFoundException e) {
            return new Settled.Unknown(e);
        } catch (InputRequestConflictException e) {
            return e.currentStatus() == RequestStatus.CANCELLED ? new Settled.Repeat(e) : new Settled.Conflict(e);
        }
    }

    /**
     * An answer to a form asked without a stored request (the question travelled with the call): checked against the
     * form; values the form keeps for the user across conversations are kept as a chat keeps them, as a request of
     * {@code conversationId} answered at once (a conversation's own values are not: there is no conversation).
     */
    public Settled answer(String ownerId, String conversationId, String requestId, String toolName,
                          UserInputRequirement form, JsonNode values) {
        InputFieldValidator.Result checked = InputFieldValidator.validate(form.fields(), values);
        if (!checked.valid()) {
            return new Settled.Invalid(new InvalidInputException("some values are not valid", checked.errors()));
        }
        if (form.saveForSession() && form.scope() == ValueScope.USER) {
            try {
                requests.create(ownerId, conversationId, new NewInputRequest(toolName, requestId, form.reason(),
                        form.fields(), form.saveForSession(), form.scope()));
                requests.submit(ownerId, conversationId, requestId, values, true);
            } catch (RuntimeException e) {
                LOG.warn("an answer to keep for the user could not be saved", "tool", toolName, "cause", e.getClass().getSimpleName());
            }
        }
        return new Settled.Taken(checked.values());
    }

    /** Whether request {@code requestId} asks for a secret (which only the page's own form takes); false when unknown. */
    public boolean asksForASecret(String ownerId, String conversationId, String requestId) {
        try {
            return requests.find(ownerId, conversationId, requestId).fields().stream().anyMatch(f -> f.type() == FieldType.SECRET);
        } catch (InputRequestNotFoundException e) {
            return false;
        }
    }

    /**
     * A call was cancelled: the requests still pending whose ids start with {@code requestIdPrefix} (the call's) are
     * declined, so whoever waits on them stops at its next look and nothing is saved; an answer that came first stands.
     */
    public List<String> withdrawPending(String ownerId, String conversationId, String requestIdPrefix) {
        List<String> withdrawn = new ArrayList<>();
        try {
            for (InputRequest pending : requests.list(ownerId, conversationId, Optional.of(RequestStatus.PENDING))) {
                if (pending.toolCallId().startsWith(requestIdPrefix)
                        && decline(ownerId, conversationId, pending.toolCallId()) instanceof Settled.Declined) {
                    withdrawn.add(pending.toolCallId());
                }
            }
        } catch (InputRequestNotFoundException e) {
            // the conversation never asked anything
        } catch (StoreUnavailableException e) {
            LOG.warn("could not withdraw a cancelled call's requests", "cause", String.valueOf(e.getMessage()));
        }
        return withdrawn;
    }

    /** The refusal a door reports for an answer not taken; empty when it was taken or declined now. */
    public static Optional<DomainFailure> refusal(Settled settled) {
        return switch (settled) {
            case Settled.Taken t -> Optional.empty();
            case Settled.Declined d -> Optional.empty();
            case Settled.Repeat r -> Optional.of(r.failure());
            case Settled.Invalid i -> Optional.of(i.failure());
            case Settled.Conflict c -> Optional.of(c.failure());
            case Settled.Unknown u -> Optional.of(u.failure());
        };
    }
}
