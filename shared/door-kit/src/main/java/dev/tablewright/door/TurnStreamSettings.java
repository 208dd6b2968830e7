package dev.tablewright.door;

import dev.tablewright.lambda.Settings;

import java.time.Duration;
import java.util.Map;

/**
 * The stream log of running turns, as a door function's environment sets it (read once, when it is built).
 *
 * @param table      {@code TURN_STREAMS_TABLE}; null: turns are not resumable nor stoppable from elsewhere
 * @param ttl        {@code TURN_STREAM_TTL_MINUTES} (default 60): how long a log outlives its turn at most
 * @param batching   {@code TURN_STREAM_BATCH_MS} (250): a batch is stored this often, or at 200 events or 64 KB
 * @param readerPoll {@code TURN_STREAM_POLL_MS} (250): how often a resumed reader that has caught up asks for more
 */
public record TurnStreamSettings(String table, Duration ttl, TurnStreamRecorder.Batching batching, Duration readerPoll) {

    public static TurnStreamSettings fromEnvironment(Map<String, String> env) {
        String table = env.get("TURN_STREAMS_TABLE");
        TurnStreamRecorder.Batching d = TurnStreamRecorder.Batching.DEFAULT;
        return new TurnStreamSettings(table == null || table.isBlank() ? null : table,
                Duration.ofMinutes(Settings.positive("TURN_STREAM_TTL_MINUTES", env.get("TURN_STREAM_TTL_MINUTES"), 60)),
                new TurnStreamRecorder.Batching(Duration.ofMillis(Settings.positive("TURN_STREAM_BATCH_MS",
                        env.get("TURN_STREAM_BATCH_MS"), d.interval().toMillis())), d.maxEvents(), d.maxBytes()),
                Duration.ofMillis(Settings.positive("TURN_STREAM_POLL_MS", env.get("TURN_STREAM_POLL_MS"), 250)));
    }
}
