package dev.tablewright.door;

import dev.tablewright.agent.AgentInput;
import dev.tablewright.agent.AgentLoop;
import dev.tablewright.agent.AgentOutput;
import dev.tablewright.agent.AgentResult;
import dev.tablewright.agent.conversation.ConversationMemory;
import dev.tablewright.agent.toolcall.ClientTool;
import dev.tablewright.conversation.StoredMessage;
import dev.tablewright.logging.StructuredLog;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * One turn of the agent through a door, the part every door runs alike: the conversation prepared
 * ({@link #session}), the turn recorded while it runs with the user's message stored as it starts ({@link #record}),
 * the agent's input built from the prepared conversation ({@link TranscriptSplit}), the agent run with the decisions
 * around it ({@link PreviewKeeping}), and the turn stored with the answer the door's wire assembled
 * ({@link ConversationSession#save}). A door reads its request, writes the agent's events as its chunks, frames its
 * stream and says on its wire what came of the turn ({@link Ended}).
 *
 * @param <M> the door's message, read through its {@link DoorMessages}
 */
public final class DoorTurn<M> {

    /** What a door tells the user when the turn was streamed but could not be stored (storage busy past its retries). */
    public static final String STORE_BUSY = "Storage is busy: this answer was not saved. Please send your message again in a moment.";
    private static final StructuredLog LOG = StructuredLog.of(DoorTurn.class);

    private final AgentLoop agent;
    private final ConversationSession<M> session;
    private final TranscriptSplit<M> transcripts;
    private final TurnStreams streams;

    /**
     * @param state   the conversations a turn is stored in ({@link ConversationMemory#NONE}: the page's context is all a
     *                turn has)
     * @param streams the stream log of running turns ({@link TurnStreams#NONE}: not resumable)
     */
    public DoorTurn(AgentLoop agent, ConversationMemory state, DoorMessages<M> form, TurnStreams streams) {
        this.agent = agent;
        this.session = new ConversationSession<>(state, form);
        this.transcripts = new TranscriptSplit<>(form);
        this.streams = streams;
    }

    /** The conversation around a turn: prepared before it, stored after it. */
    public ConversationSession<M> session() {
        return session;
    }

    /** The running turns: resumed and stopped by {@link ConversationRoute}. */
    public TurnStreams streams() {
        return streams;
    }

    /** The pages a turn can sit beside. */
    public Set<String> pages() {
        return agent.pages();
    }

    /**
     * Record → run → save for a turn prepared before its stream starts: a kept, recorded turn stores the user's message
     * first, then is recorded while it runs ({@link TurnStreams#run}); {@code turn} runs it ({@link #run}).
     */
    public void record(String ownerId, ConversationSession.Prepared<M> prepared, StreamFraming framing, TurnStreams.Turn turn) {
        boolean kept = session.keeps(prepared);
        if (kept && streams.enabled()) {
            // before the turn runs, on its own thread: a page reloaded mid-turn shows the question above the resumed
            // answer, and the end's save always comes after (a start stored late, e.g. retried after its answer was
            // lost, would replace the stored turn, or bring back a conversation deleted once the client had [DONE])
            session.saveStart(ownerId, prepared);
        }
        streams.run(ownerId, prepared.conversationId(), kept, framing, turn);
    }

    /**
     * What a turn runs on.
     *
     * @param messageId   the assistant message the turn writes
     * @param clientTools the client's own tools, offered to the model beside the server's
     */
    public record Turn<M>(String ownerId, ConversationSession.Prepared<M> prepared, String messageId, List<ClientTool> clientTools) {
    }

    /**
     * The door's wire around the agent.
     *
     * @param events     the door's event mapper
     * @param afterStart writes the settled answers' outcomes, right after the turn starts
     * @param keep       issues the call that keeps a preview left pending and writes it (null: the client takes none;
     *                   {@link PreviewKeeping})
     * @param end        the door's last words once the agent is done and before the turn is stored (AG-UI: the
     *                   calls its run waits on), giving the assistant message its wire assembled, as stored (none: it
     *                   wrote nothing)
     */
    public record Wire(AgentOutput events, Runnable afterStart, Predicate<String> keep,
                       Function<AgentResult, Optional<StoredMessage>> end) {
    }

    /** How the turn ended: the agent's result, and whether the turn was stored (false: say {@link #STORE_BUSY}). */
    public record Ended(AgentResult result, boolean stored) {
    }

    /** Runs the agent over the prepared conversation, then stores the turn; never throws for the store. */
    public Ended run(Turn<M> turn, Wire wire, Optional<Instant> deadline) {
        ConversationSession.Prepared<M> prepared = turn.prepared();
        TranscriptSplit.Split split = transcripts.split(prepared.history(), turn.messageId(), prepared.memory(), prepared.paused());
        AgentInput input = new AgentInput(prepared.conversationId() == null ? "anonymous" : prepared.conversationId(),
                turn.ownerId(), prepared.context(), prepared.draft(), split.history(), split.turnKey(), split.start(),
                turn.clientTools());
        AgentResult result = agent.run(input, new PreviewKeeping(wire.events(), wire.afterStart(), wire.keep()), deadline);
        try {
            return new Ended(result, session.save(turn.ownerId(), prepared, wire.end().apply(result), result));
        } catch (RuntimeException e) {
            LOG.error("the turn's end could not be handled", e);
            return new Ended(result, false);
        }
    }
}
