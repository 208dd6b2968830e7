package dev.tablewright.conversation;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The tool calls issued for the user's approval, per owner and conversation: written when the call is streamed,
 * read when an answer comes. Moving one out of {@link IssuedApproval.Status#REQUESTED} is conditional, so one
 * answer carries it out however many copies arrive.
 */
public interface ToolApprovalStore {

    void issue(String ownerId, IssuedApproval approval);

    /** The owner's approval in that conversation; another owner's or conversation's is absent. */
    Optional<IssuedApproval> find(String ownerId, String conversationId, String approvalId);

    /**
     * Takes the approval to answer it: REQUESTED (or ANSWERING since before {@code staleBefore}, an answer that died)
     * becomes ANSWERING. False when it is not open: then another answer has it or had it.
     */
    boolean claim(String ownerId, String conversationId, String approvalId, Instant now, Instant staleBefore);

    /** The claimed approval's outcome (from ANSWERING to {@code status}). */
    void settle(String ownerId, String conversationId, String approvalId, IssuedApproval.Status status, String outcomeJson);

    /** The conversation's approvals still waiting for an answer. */
    List<IssuedApproval> open(String ownerId, String conversationId);

    /** Closes an open approval without carrying it out (REQUESTED to SUPERSEDED); false when it was not open. */
    boolean supersede(String ownerId, String conversationId, String approvalId);
}
