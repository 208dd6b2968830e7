package dev.tablewright.conversation;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The short-lived log of a running turn's stream (DynamoDB table {@code TurnStreamsTable}): the conversation's
 * active stream (a marker naming it, with its stop flag) and the stream itself in numbered batches of already encoded
 * events, so that another invocation can replay a turn from its start and follow it live, or ask it to stop.
 * Everything is per owner and per conversation: another owner's conversation of the same id is another log.
 * Items expire on their own soon after the turn (the table's TTL); a reader never depends on that.
 *
 * <p>One writer per stream appends its batches in order, each after the one before was stored, so a reader that
 * sees batch {@code n} also sees every batch before it.
 */
public interface TurnStreamLog {

    /** The stream a conversation's running turn writes, as its marker records it. */
    record ActiveStream(String streamId, Instant startedAt, boolean stopRequested) {
    }

    /** One batch: its number (from 0), the events it holds in order, encoded, and whether it ends the stream. */
    record Batch(int number, String events, int eventCount, boolean last) {
    }

    /** Names {@code streamId} as the conversation's active stream (replacing any earlier one). */
    void open(String ownerId, String conversationId, String streamId, Instant now);

    void append(String ownerId, String conversationId, String streamId, Batch batch, Instant now);

    /** Clears the marker, if it still names {@code streamId} (a later turn's stays). */
    void close(String ownerId, String conversationId, String streamId);

    Optional<ActiveStream> active(String ownerId, String conversationId);

    /** The stream's batches from number {@code fromBatch} on, in order. */
    List<Batch> read(String ownerId, String conversationId, String streamId, int fromBatch);

    /** Raises the stop flag of the conversation's active stream; false when none runs (nothing is written then). */
    boolean requestStop(String ownerId, String conversationId);
}
