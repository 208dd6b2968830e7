package dev.tablewright.lambda.streaming;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.json.Json;
import dev.tablewright.lambda.Priming;
import dev.tablewright.logging.StructuredLog;

import java.io.IOException;

/**
 * The Lambda runtime of the response-streaming functions (the chat and the MCP server): the managed Java runtime
 * buffers a handler's answer, so a streaming function URL needs the Runtime API spoken directly (see
 * docs/streaming.md). Launched by {@code streaming-wrapper} ({@code AWS_LAMBDA_EXEC_WRAPPER}), which ships in the
 * jar of every function built on this module, in place of the Runtime Interface Client.
 *
 * <p>Init: create the handler named by the first argument or {@code _HANDLER} (a {@link StreamingHandler} with a
 * public no-argument constructor); a failure there is posted to {@code /init/error} and the process exits. Then,
 * forever: {@code /next}, run the handler on a streamed response, end the response. A handler that throws before
 * its first byte fails the invocation ({@code /error}); after it, the error goes into the stream's trailers.
 */
public final class StreamingRuntime {

    private static final StructuredLog LOG = StructuredLog.of(StreamingRuntime.class);

    private final RuntimeApiClient api;
    private final StreamingHandler handler;

    StreamingRuntime(RuntimeApiClient api, StreamingHandler handler) {
        this.api = api;
        this.handler = handler;
    }

    public static void main(String[] args) {
        String address = System.getenv("AWS_LAMBDA_RUNTIME_API");
        if (address == null || address.isBlank()) {
            System.err.println("AWS_LAMBDA_RUNTIME_API is not set: this program runs inside Lambda or the Runtime API emulator");
            System.exit(2);
        }
        RuntimeApiClient api = new RuntimeApiClient(address);
        String handlerName = args.length > 0 && !args[0].isBlank() ? args[0] : System.getenv("_HANDLER");
        StreamingHandler handler;
        try {
            handler = create(handlerName);
        } catch (Throwable thrown) {
            // the constructor's own failure, not the reflection wrapper around it
            Throwable t = thrown instanceof java.lang.reflect.InvocationTargetException e && e.getCause() != null ? e.getCause() : thrown;
            LOG.error("init failed", t, "handler", String.valueOf(handlerName));
            try {
                api.initError("Runtime.InitError", "could not create handler " + handlerName + ": " + t.getClass().getSimpleName());
            } catch (IOException e) {
                LOG.warn("could not report the init error", "cause", e.getMessage());
            }
            System.exit(1);
            return;
        }
        StreamingRuntime runtime = new StreamingRuntime(api, handler);
        if (SNAP_START.equals(System.getenv("AWS_LAMBDA_INITIALIZATION_TYPE")) && !runtime.snapshotAndRestore()) {
            System.exit(1);
            return;
        }
        runtime.run();
    }

    static final String SNAP_START = "snap-start";

    /**
     * SnapStart, as the managed runtime serves it: the hooks run before the snapshot (priming), then
     * {@code /restore/next} (Lambda snapshots during it; it returns in a restored environment), then the hooks after
     * the restore; a failing one is reported on {@code /restore/error}. False when the environment cannot serve.
     */
    boolean snapshotAndRestore() {
        Priming.beforeSnapshot();
        try {
            api.restoreNext();
        } catch (IOException e) {
            LOG.error("the Runtime API failed at /restore/next", e);
            return false;
        }
        try {
            Priming.afterRestore();
            return true;
        } catch (RuntimeException e) {
            LOG.error("a hook failed after the restore", e);
            try {
                api.restoreError("Runtime.AfterRestoreError", "a hook failed after the restore: " + e.getClass().getSimpleName());
            } catch (IOException reported) {
                LOG.warn("could not report the restore error", "cause", reported.getMessage());
            }
            return false;
        }
    }

    static StreamingHandler create(String className) throws ReflectiveOperationException {
        if (className == null || className.isBlank()) {
            throw new ClassNotFoundException("no handler: set _HANDLER to a StreamingHandler class");
        }
        // "pkg.Class::method" is the managed runtime's form; the method part means nothing here
        String name = className.contains("::") ? className.substring(0, className.indexOf("::")) : className;
        Class<?> type = Class.forName(name.trim());
        if (!StreamingHandler.class.isAssignableFrom(type)) {
            throw new ClassCastException(name + " is not a " + StreamingHandler.class.getName());
        }
        return (StreamingHandler) type.getDeclaredConstructor().newInstance();
    }

    void run() {
        while (true) {
            NextInvocation next;
            try {
                next = api.next();
            } catch (IOException e) {
                // The Runtime API is gone (the environment is shutting down) or broken: nothing left to serve.
                LOG.error("the Runtime API failed", e);
                System.exit(3);
                return;
            }
            serve(next);
        }
    }

    void serve(NextInvocation next) {
        StructuredLog.put("requestId", next.requestId());
        if (next.traceId() != null) {
            System.setProperty("com.amazonaws.xray.traceHeader", next.traceId());
        }
        RuntimeResponseStream response = api.streamingResponse(next.requestId());
        try {
            JsonNode event = Json.MAPPER.readTree(next.event());
            handler.handle(event, response, next.invocation());
            if (!response.isEnded()) {
                response.close();
            }
        } catch (Throwable t) {
            LOG.error("the handler failed", t);
            // plain type and message only: no stack trace, and exception messages stay in the logs
            response.fail(t.getClass().getSimpleName(), "the function failed");
            if (t instanceof Error && !(t instanceof StackOverflowError)) {
                System.exit(4); // out of memory or worse: let Lambda start a fresh environment
            }
        } finally {
            StructuredLog.clear();
        }
    }
}
