package dev.tablewright.lambda.streaming;

import java.time.Instant;
import java.util.Optional;

/**
 * What the Runtime API says about one invocation, beyond its event.
 *
 * @param deadline when Lambda stops the invocation ({@code Lambda-Runtime-Deadline-Ms}); null when unknown
 *                 (in-process callers such as the local gateway)
 */
public record LambdaInvocation(String requestId, Instant deadline, String invokedFunctionArn, String traceId) {

    public static LambdaInvocation unknown() {
        return new LambdaInvocation(null, null, null, null);
    }

    public Optional<Instant> deadlineIfKnown() {
        return Optional.ofNullable(deadline);
    }
}
