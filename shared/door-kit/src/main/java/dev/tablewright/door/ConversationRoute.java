package dev.tablewright.door;

import dev.tablewright.http.stream.HttpResponseStream;
import dev.tablewright.logging.StructuredLog;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The routes of a conversation's running turn that every door serves beside its turns: {@code GET …/{id}/stream}
 * reads the turn again from its start and follows it ({@link TurnStreams#resume}), {@code POST …/{id}/stop} stops it
 * ({@link TurnStreams#stop}: 204 whether or not one ran); another method is a 405.
 *
 * @param conversationId the conversation, URL-decoded
 * @param action         {@code stream} or {@code stop}
 */
public record ConversationRoute(String conversationId, String action) {

    private static final StructuredLog LOG = StructuredLog.of(ConversationRoute.class);
    /**
     * {@code …/{conversationId}/stream} and {@code …/{conversationId}/stop}: the function URL's root (or the local
     * gateway's path of the door) followed by the conversation; anything else is a turn.
     */
    private static final Pattern ROUTE = Pattern.compile("^.*/([^/]+)/(stream|stop)/?$");

    /** The route {@code rawPath} names; empty for a turn. */
    public static Optional<ConversationRoute> of(String rawPath) {
        Matcher route = ROUTE.matcher(rawPath == null ? "" : rawPath);
        return route.matches()
                ? Optional.of(new ConversationRoute(URLDecoder.decode(route.group(1), StandardCharsets.UTF_8), route.group(2)))
                : Optional.empty();
    }

    /** Answers the route for the verified {@code ownerId}, a replay in the door's {@code framing}. */
    public void answer(String method, String ownerId, TurnStreams streams, StreamFraming framing, Optional<Instant> deadline,
                       HttpResponseStream response) {
        StructuredLog.put("conversationId", conversationId);
        if (action.equals("stream") && method.equals("GET")) {
            streams.resume(ownerId, conversationId, response, deadline, framing);
        } else if (action.equals("stop") && method.equals("POST")) {
            boolean running;
            try {
                running = streams.stop(ownerId, conversationId);
            } catch (RuntimeException e) {
                LOG.warn("turn stop failed: the stream log is unavailable", "cause", String.valueOf(e.getMessage()));
                Refusals.unavailable(response);
                return;
            }
            LOG.info("turn stop", "running", running);
            response.start(204, Map.of());
            response.close();
        } else {
            Refusals.methodNotAllowed(response, action.equals("stream") ? "GET" : "POST");
        }
    }
}
