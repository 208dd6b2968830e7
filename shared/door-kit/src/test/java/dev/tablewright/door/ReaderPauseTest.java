package dev.tablewright.door;

import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** A resumed reader's pauses follow the writer's beat: none of its reads falls before the next batch can be there. */
class ReaderPauseTest {

    final TurnStreams streams = new TurnStreams(null, TurnStreams.Settings.defaults(Duration.ofMinutes(2)), Clock.systemUTC());

    static long ms(long millis) {
        return Duration.ofMillis(millis).toNanos();
    }

    @Test
    void rightAfterABatchTheReaderWaitsForTheWritersNextBeat() {
        assertEquals(300, streams.pauseMillis(ms(0)), "a beat, and a fifth of a poll for the batch's own earliest moment");
        assertEquals(200, streams.pauseMillis(ms(100)), "asked again when the next batch can first be there");
    }

    @Test
    void fromTheBeatOnItAsksOftenUntilTheBatchIsThere() {
        assertEquals(50, streams.pauseMillis(ms(300)));
        assertEquals(50, streams.pauseMillis(ms(540)));
    }

    @Test
    void aWriterWithNothingToStoreIsAskedEveryPollAsBefore() {
        assertEquals(250, streams.pauseMillis(ms(550)));
        assertEquals(250, streams.pauseMillis(ms(5_000)));
    }
}
