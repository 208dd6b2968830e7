package dev.tablewright.conversation;

import java.time.Instant;

/**
 * A tool call the server asked the user to approve, as it was issued: what an answer is checked against (nothing
 * of the answer the client sends back is trusted beyond its approval id) and, once answered, the outcome a repeated
 * answer gets again.
 *
 * @param approvalId the id the client answers
 * @param messageId  the assistant message the call is part of
 * @param inputJson  the call's input (JSON)
 * @param subjectId  what the call acts on (the preview it keeps)
 * @param outcomeJson the answer's outcome once settled (JSON; the tool's output or the refusal), else null
 */
public record IssuedApproval(String conversationId, String approvalId, String messageId, String toolCallId,
                             String toolName, String inputJson, String subjectId, Status status, String outcomeJson,
                             Instant issuedAt, Instant claimedAt) {

    public enum Status {
        /** Waiting for the user's answer. */
        REQUESTED,
        /** An answer is being carried out. */
        ANSWERING,
        /** Approved and carried out: {@code outcomeJson} is the tool's output. */
        APPROVED,
        /** Denied: nothing was carried out. */
        DENIED,
        /** Approved, but it could not be carried out ({@code outcomeJson} says why); nothing changed. */
        FAILED,
        /** The user wrote a new message instead of answering: the call is closed, nothing was carried out. */
        SUPERSEDED
    }

    public IssuedApproval with(Status newStatus, String outcome) {
        return new IssuedApproval(conversationId, approvalId, messageId, toolCallId, toolName, inputJson, subjectId,
                newStatus, outcome, issuedAt, claimedAt);
    }
}
