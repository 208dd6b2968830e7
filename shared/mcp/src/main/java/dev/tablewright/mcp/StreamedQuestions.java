package dev.tablewright.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.agent.toolcall.UserInputPort;
import dev.tablewright.door.FormAnswers;
import dev.tablewright.json.Json;
import dev.tablewright.logging.StructuredLog;
import dev.tablewright.store.StoreUnavailableException;
import dev.tablewright.toolcontract.UserInputRequirement;
import io.modelcontextprotocol.spec.ProtocolVersions;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * A 2025 session's questions: an input request of the lifecycle (its id is the {@code elicitation/create} request's
 * JSON-RPC id), sent on the call's SSE stream; the client's answer is a new POST, possibly at another instance, that
 * completes or cancels the request ({@link ElicitationReplies}); this call reads the request until it is settled or
 * the wait runs out ({@link McpSettings#elicitationWait()}, bounded by the invocation's deadline).
 */
final class StreamedQuestions implements Questions {

    private static final StructuredLog LOG = StructuredLog.of(ToolCall.class);
    private static final Duration KEEP_ALIVE = Duration.ofSeconds(10);
    private static final Duration DEADLINE_MARGIN = Duration.ofSeconds(3);

    private final McpSettings settings;
    private final FormAnswers answers;
    private final UserInputPort userInput;
    private final McpCaller caller;
    private final EventStream stream;
    private final Optional<Instant> deadline;
    private final Clock clock;
    /** Every question this call asks starts with it, so a client's cancellation of the call finds them. */
    private final String questionPrefix;

    StreamedQuestions(McpSettings settings, FormAnswers answers, UserInputPort userInput, McpCaller caller,
                      EventStream stream, Optional<Instant> deadline, Clock clock, JsonNode callId) {
        this.settings = settings;
        this.answers = answers;
        this.userInput = userInput;
        this.caller = caller;
        this.stream = stream;
        this.deadline = deadline;
        this.clock = clock;
        this.questionPrefix = ToolCall.questionPrefix(callId);
    }

    @Override
    public Asked ask(String toolName, UserInputRequirement requirement, Map<String, String> soFar, String onDecline) {
        if (ElicitationForms.hasSecret(requirement)) {
            // secrets never go through form mode (the spec forbids it): the page's own form takes them
            if (!caller.elicitsUrls() || settings.pageUrl() == null) {
                return ToolCall.ends(ToolResults.failure(toolName + " needs a secret value, which is never asked for "
                        + "in a client's form. Enter it on the Tablewright page, then call the tool again."));
            }
        } else if (!caller.elicitsForms()) {
            return ToolCall.ends(ToolResults.failure(ElicitationForms.whatIsNeeded(toolName, requirement)));
        }
        String conversation = caller.conversationId();
        String requestId = ToolCall.newId(questionPrefix);
        try {
            userInput.request(caller.ownerId(), conversation, requestId, toolName, requirement);
        } catch (RuntimeException e) {
            LOG.error("the input request could not be created", e, "tool", toolName);
            return ToolCall.ends(ToolResults.failure("The question for " + toolName + " could not be asked just now; try again shortly."));
        }
        ObjectNode params = Json.object().put("message", requirement.reason());
        if (ElicitationForms.hasSecret(requirement)) {
            params.put("mode", "url").put("elicitationId", requestId)
                    .put("url", settings.pageUrl() + "?conversation=" + conversation + "&inputRequest=" + requestId);
        } else {
            if (ProtocolVersions.MCP_2025_11_25.equals(caller.protocolVersion())) {
                params.put("mode", "form");
            }
            params.set("requestedSchema", ElicitationForms.requestedSchema(toolName, requirement));
        }
        ObjectNode message = Json.object().put("jsonrpc", "2.0").put("id", requestId).put("method", "elicitation/create");
        message.set("params", params);
        stream.send(message);
        return await(requestId, onDecline);
    }

    private Asked await(String requestId, String onDecline) {
        String conversation = caller.conversationId();
        String ownerId = caller.ownerId();
        Instant until = clock.instant().plus(settings.elicitationWait());
        if (deadline.isPresent() && deadline.get().minus(DEADLINE_MARGIN).isBefore(until)) {
            until = deadline.get().minus(DEADLINE_MARGIN);
        }
        Instant nextKeepAlive = clock.instant().plus(KEEP_ALIVE);
        while (true) {
            Optional<UserInputPort.Answer> answer = userInput.answer(ownerId, conversation, requestId);
            if (answer.isPresent() && !answer.get().pending()) {
                return settled(answer.get(), onDecline);
            }
            Instant now = clock.instant();
            if (!now.isBefore(until) || stream.clientGone()) {
                break;
            }
            if (!now.isBefore(nextKeepAlive)) {
                stream.keepAlive();
                nextKeepAlive = now.plus(KEEP_ALIVE);
            }
            try {
                Thread.sleep(settings.answerPoll().toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        // Out of time (or the client left): cancel the question, so a late answer is refused rather than saved.
        try {
            if (!(answers.decline(ownerId, conversation, requestId) instanceof FormAnswers.Settled.Declined)) {
                // answered in the meantime: that answer stands
                Optional<UserInputPort.Answer> late = userInput.answer(ownerId, conversation, requestId);
                if (late.isPresent() && !late.get().pending()) {
                    return settled(late.get(), onDecline);
                }
            }
        } catch (StoreUnavailableException e) {
            LOG.warn("could not cancel an unanswered question", "cause", String.valueOf(e.getMessage()));
        }
        return ToolCall.ends(ToolResults.failure("No answer came within " + settings.elicitationWait().toSeconds()
                + " seconds, so the question was withdrawn. " + onDecline + " Call the tool again to be asked again."));
    }

    private static Asked settled(UserInputPort.Answer answer, String onDecline) {
        if (answer.completed()) {
            return new Asked(answer.values(), null);
        }
        return Asked.declined(answer.status(), onDecline);
    }
}
