package dev.tablewright.mcp;

import java.time.Duration;
import java.util.Set;

/**
 * What an MCP endpoint is configured with (read once from the environment by the function's wiring).
 *
 * @param authorizationServer the issuer clients sign in with (the Cognito user pool; locally the development issuer),
 *                            named by the protected-resource metadata
 * @param resourceUrl         the endpoint's public URL ({@code https://host/mcp}); null: taken from each request's
 *                            {@code Host} (a function URL's own host)
 * @param allowedHosts        the host names a request's {@code Host} may name (the local stack: localhost, 127.0.0.1,
 *                            [::1]); empty: any (a function URL answers only its own host name anyway)
 * @param allowedOrigins      browser origins allowed besides the endpoint's own (DNS rebinding protection: any other
 *                            {@code Origin} is refused with 403)
 * @param sessionTtl          how long a session stays usable after {@code initialize}
 * @param elicitationWait     how long a tool call waits for the answer to its question before it gives up with an
 *                            error result (bounded further by the invocation's deadline)
 * @param answerPoll          how often the waiting call reads the input request for an answer
 * @param pageUrl             the reference page a URL-mode question points at (secret fields); null: none served
 * @param requestStateTtl     how long a 2026-07-28 {@code requestState} stays valid: the input requests' lifetime, so a
 *                            retry may come as late as an answer to the chat's question
 */
public record McpSettings(String authorizationServer, String resourceUrl, Set<String> allowedHosts, Set<String> allowedOrigins, Duration sessionTtl,
                          Duration elicitationWait, Duration answerPoll, String pageUrl, Duration requestStateTtl) {

    public static final Duration DEFAULT_SESSION_TTL = Duration.ofHours(24);
    public static final Duration DEFAULT_ELICITATION_WAIT = Duration.ofSeconds(120);
    public static final Duration DEFAULT_ANSWER_POLL = Duration.ofMillis(250);
    public static final Duration DEFAULT_REQUEST_STATE_TTL = Duration.ofHours(24);
    /** The host names of the local machine, for an endpoint served there. */
    public static final Set<String> LOCAL_HOSTS = Set.of("localhost", "127.0.0.1", "[::1]");

    public McpSettings {
        allowedHosts = allowedHosts == null ? Set.of() : Set.copyOf(allowedHosts);
        allowedOrigins = allowedOrigins == null ? Set.of() : Set.copyOf(allowedOrigins);
        sessionTtl = sessionTtl == null ? DEFAULT_SESSION_TTL : sessionTtl;
        elicitationWait = elicitationWait == null ? DEFAULT_ELICITATION_WAIT : elicitationWait;
        answerPoll = answerPoll == null ? DEFAULT_ANSWER_POLL : answerPoll;
        requestStateTtl = requestStateTtl == null ? DEFAULT_REQUEST_STATE_TTL : requestStateTtl;
    }
}
