package dev.tablewright.lambda.streaming;


import java.time.Instant;

/** The answer of {@code GET /runtime/invocation/next}: the event and its headers. */
record NextInvocation(String requestId, long deadlineEpochMillis, String invokedFunctionArn, String traceId, byte[] event) {

    LambdaInvocation invocation() {
        return new LambdaInvocation(requestId, deadlineEpochMillis > 0 ? Instant.ofEpochMilli(deadlineEpochMillis) : null,
                invokedFunctionArn, traceId);
    }
}
