package dev.tablewright.fakes.model;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeoutException;

/**
 * A model server that replays {@link ScriptedTurn}s on the loopback interface, whichever wire it speaks: the
 * OpenAI-compatible {@link ScriptedModelServer} or the Bedrock stand-in {@link BedrockModelServer}. The same script
 * plays on either, so a suite written against one runs against the other.
 */
public interface ScriptedModel extends AutoCloseable {

    ScriptedModel enqueue(ModelScript script);

    ScriptedModel enqueue(ScriptedTurn... turns);

    /** Turns not yet consumed. */
    int remainingTurns();

    /** Lets every turn waiting at {@code waitFor(signal)} go on. */
    void release(String signal);

    /** Requests as received; {@link RecordedRequest#messages()} reads either wire as chat-completions messages. */
    List<RecordedRequest> requests();

    List<RecordedRequest> awaitRequests(int count, Duration timeout) throws InterruptedException, TimeoutException;

    /** Waits until the answer to request {@code index} has ended (any outcome). */
    default RecordedRequest awaitAnswered(int index, Duration timeout) throws InterruptedException, TimeoutException {
        RecordedRequest request = awaitRequests(index + 1, timeout).get(index);
        long deadline = System.nanoTime() + timeout.toNanos();
        while (request.answer().outcome().equals("pending")) {
            if (System.nanoTime() > deadline) {
                throw new TimeoutException("answer " + index + " still pending");
            }
            Thread.sleep(5);
        }
        return request;
    }

    @Override
    void close();
}
