package dev.tablewright.conversation;

import dev.tablewright.configstore.ConfigStore;
import dev.tablewright.configstore.Page;
import dev.tablewright.codec.ConfigJson;
import dev.tablewright.preview.PendingPreview;
import dev.tablewright.preview.PreviewStatus;
import dev.tablewright.preview.PreviewStore;
import dev.tablewright.userinput.InputRequestStore;

import java.time.Clock;
import java.time.Instant;
import java.util.Optional;

/**
 * What a client can do with its stored conversations (list, open, rename, delete), and the one rule for what a
 * conversation's working draft is now: a draft waiting on a preview follows that preview's fate.
 */
public final class ConversationService {

    /** A title is 1 to this many characters (after trimming). */
    public static final int MAX_TITLE_CHARS = 200;

    private final ConversationStore conversations;
    private final InputRequestStore inputRequests;
    private final PreviewStore previews;
    private final ConfigStore configs;
    private final Clock clock;

    public ConversationService(ConversationStore conversations, InputRequestStore inputRequests, PreviewStore previews,
                               ConfigStore configs, Clock clock) {
        this.conversations = conversations;
        this.inputRequests = inputRequests;
        this.previews = previews;
        this.configs = configs;
        this.clock = clock;
    }

    public Page<ConversationSummary> list(String ownerId, int limit, String cursor) {
        return conversations.list(ownerId, limit, cursor);
    }

    /** The conversation with its draft as it stands now (see {@link #current}). */
    public Optional<StoredConversation> find(String ownerId, String conversationId) {
        return conversations.find(ownerId, conversationId).map(c -> {
            Optional<WorkingDraft> draft = current(ownerId, c.draft());
            ConversationSummary s = c.summary();
            String configId = draft.map(WorkingDraft::configId).orElse(s.configId());
            return new StoredConversation(new ConversationSummary(s.id(), s.title(), s.createdAt(), s.updatedAt(), configId),
                    c.messages(), draft, c.memory());
        });
    }

    /** Renames the conversation; empty if the owner has none by that id. The title must be checked by the caller. */
    public Optional<ConversationSummary> rename(String ownerId, String conversationId, String title) {
        if (!conversations.rename(ownerId, conversationId, title, clock.instant())) {
            return Optional.empty();
        }
        return find(ownerId, conversationId).map(StoredConversation::summary);
    }

    /**
     * Deletes the conversation and what hangs off it: its input requests and the values saved for it (the user's own
     * values stay), and its pending previews, which can no longer be accepted. False if the owner has none by that id.
     */
    public boolean delete(String ownerId, String conversationId) {
        Instant now = clock.instant();
        boolean existed = conversations.delete(ownerId, conversationId);
        // also for a conversation never stored here (a client that does not persist): its requests and previews go
        inputRequests.deleteConversation(ownerId, conversationId);
        previews.rejectPendingOf(ownerId, conversationId, now);
        return existed;
    }

    /**
     * The draft as it stands now. A draft waiting on a preview becomes the saved version once the preview was
     * accepted, and an unsaved tool result again once it was rejected or expired; any other draft is as stored.
     */
    public Optional<WorkingDraft> current(String ownerId, Optional<WorkingDraft> stored) {
        if (stored.isEmpty() || stored.get().source() != DraftSource.PENDING_PREVIEW || stored.get().previewId() == null) {
            return stored;
        }
        WorkingDraft draft = stored.get();
        Optional<PendingPreview> preview = previews.find(ownerId, draft.previewId());
        if (preview.isEmpty()) {
            return Optional.of(unsaved(draft));
        }
        PendingPreview p = preview.get();
        PreviewStatus status = p.statusAt(clock.instant());
        if (status == PreviewStatus.PENDING) {
            return stored;
        }
        if (status != PreviewStatus.ACCEPTED) {
            return Optional.of(unsaved(draft));
        }
        // accepted: the config it wrote is the draft now (the create path made a config with the preview's name)
        return (p.configId() != null ? configs.get(ownerId, p.configId()) : configs.getByName(ownerId, p.config().name()))
                .map(saved -> new WorkingDraft(ConfigJson.writeString(saved.config()), DraftSource.ACCEPTED_VERSION,
                        saved.configId(), saved.version(), null))
                .or(() -> Optional.of(unsaved(draft)));
    }

    private static WorkingDraft unsaved(WorkingDraft draft) {
        return new WorkingDraft(draft.configJson(), DraftSource.TOOL_RESULT, draft.configId(), draft.version(), null);
    }
}
