package dev.tablewright.aisdk;

import dev.tablewright.agent.AgentEvent;
import dev.tablewright.agent.AgentInput;
import dev.tablewright.agent.AgentLoop;
import dev.tablewright.agent.AgentOutput;
import dev.tablewright.agent.StopReason;
import dev.tablewright.agent.model.TokenUsage;
import dev.tablewright.aisdk.approval.ToolApprovals;
import dev.tablewright.aisdk.stream.UiChunk;
import dev.tablewright.agent.AgentResult;
import dev.tablewright.agent.PausedTurn;
import dev.tablewright.agent.StopSignal;
import dev.tablewright.agent.memory.Transcript;
import dev.tablewright.aisdk.request.ChatRequest;
import dev.tablewright.aisdk.request.UiMessage;
import dev.tablewright.aisdk.request.UiMessages;
import dev.tablewright.door.PreviewKeeping;
import dev.tablewright.door.TranscriptSplit;
import dev.tablewright.aisdk.stream.UiMessageStreamWriter;
import dev.tablewright.conversation.WorkingDraft;
import dev.tablewright.logging.StructuredLog;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * A chat turn through the AI SDK's door: the useChat request becomes the agent's input, the agent's events become the
 * UI message stream ({@link UiStreamMapper}), and the turn's result is handed on to be stored before {@code [DONE]}.
 */
public final class UiStreamTurn {

    private static final StructuredLog LOG = StructuredLog.of(UiStreamTurn.class);

    private final AgentLoop agent;
    private final TranscriptSplit<UiMessage> transcripts = new TranscriptSplit<>(UiMessages.FORM);

    public UiStreamTurn(AgentLoop agent) {
        this.agent = agent;
    }

    /** The pages a turn can sit beside. */
    public Set<String> pages() {
        return agent.pages();
    }

    /**
     * The tool approvals around a turn: the answers the request brought, settled before it ({@link ToolApprovals#answer}),
     * and whether the turn issues the call that keeps a preview it leaves pending.
     */
    public record Approvals(ToolApprovals approvals, ToolApprovals.Answered answered, boolean issue) {
        public static final Approvals NONE = new Approvals(ToolApprovals.NONE, null, false);
    }

    /**
     * Runs the turn to its end and ends the stream. {@code onEnd} gets the turn's result exactly once, after the
     * {@code finish} part and before {@code [DONE]}, so what it stores is there before the client can send the next
     * message. With {@code outlivesClient} a client that leaves does not end the turn (it runs to its end within its
     * limits and is stored whole); {@code stop}, when raised, cancels the model and ends the turn with what was said so
     * far ({@link StopReason#USER_STOPPED}). A turn resuming {@code paused} settles the calls the agent recorded open
     * ({@link TranscriptSplit#split}); the answers' outcomes follow {@code start}; when no answer was carried out now
     * (refused, or repeated) the turn ends there, without the model and without storing anything; a preview left
     * pending ends the turn with the call that keeps it, waiting for the user.
     *
     * @param request the request over the whole conversation
     * @param draft   the conversation's working draft, used when the page sends no config or state of its own
     * @param memory  what the agent remembers of the conversation
     */
    public void run(ChatRequest request, String ownerId, UiMessageStreamWriter ui, Optional<Instant> invocationDeadline,
                    Optional<WorkingDraft> draft, Optional<Transcript> memory, Optional<PausedTurn> paused,
                    boolean outlivesClient, StopSignal stop, Approvals approvals, Consumer<AgentResult> onEnd) {
        String messageId = messageId(request);
        UiStreamMapper mapper = new UiStreamMapper(ui, messageId, request.id(), outlivesClient, stop);
        List<UiChunk> outcomes = approvals.answered() == null ? List.of() : approvals.answered().outcomes();
        if (!outcomes.isEmpty() && !approvals.answered().goOn()) {
            mapper.emit(new AgentEvent.TurnStarted());
            outcomes.forEach(ui::write);
            mapper.emit(new AgentEvent.Stopped(StopReason.COMPLETED, TokenUsage.NONE));
            ui.done();
            return;
        }
        AgentOutput output = new PreviewKeeping(mapper, () -> outcomes.forEach(ui::write), !approvals.issue() ? null
                : previewId -> approvals.approvals().issue(ownerId, request.id(), messageId, previewId).map(chunks -> {
                    chunks.forEach(ui::write);
                    return true;
                }).orElse(false));
        TranscriptSplit.Split split = transcripts.split(request.messages(), messageId, memory, paused);
        AgentInput input = new AgentInput(request.id() == null ? "anonymous" : request.id(), ownerId, request.context(),
                draft, split.history(), split.turnKey(), split.start(), request.clientTools());
        AgentResult result = agent.run(input, output, invocationDeadline);
        try {
            onEnd.accept(result);
        } catch (RuntimeException e) {
            LOG.error("the turn's end could not be handled", e);
        }
        ui.done();
    }

    /**
     * The assistant message this turn writes: the one it resumes, the one the client asks to regenerate, or a new one.
     */
    static String messageId(ChatRequest request) {
        List<UiMessage> all = request.messages();
        UiMessage last = all.getLast();
        if ("assistant".equals(last.role()) && last.id() != null) {
            return last.id();
        }
        return request.messageId() != null && "regenerate-message".equals(request.trigger())
                ? request.messageId() : AgentEvent.newId("msg");
    }
}
