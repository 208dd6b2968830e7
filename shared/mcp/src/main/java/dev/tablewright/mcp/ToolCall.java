package dev.tablewright.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.agent.tools.UserInputLifecycle;
import dev.tablewright.agent.tools.UserInputPort;
import dev.tablewright.configstore.ConfigNotFoundException;
import dev.tablewright.configstore.VersionConflictException;
import dev.tablewright.json.Json;
import dev.tablewright.logging.StructuredLog;
import dev.tablewright.mcpsession.McpSession;
import dev.tablewright.preview.PendingPreview;
import dev.tablewright.preview.PreviewDecisions;
import dev.tablewright.preview.PreviewNotFoundException;
import dev.tablewright.preview.PreviewNotPendingException;
import dev.tablewright.preview.PreviewStatus;
import dev.tablewright.store.StoreUnavailableException;
import dev.tablewright.tool.FieldType;
import dev.tablewright.tool.InputField;
import dev.tablewright.tool.ToolDefinition;
import dev.tablewright.tool.ToolInvocation;
import dev.tablewright.tool.ToolOutcome;
import dev.tablewright.tool.UserInputRequirement;
import dev.tablewright.userinput.InputRequestConflictException;
import dev.tablewright.userinput.InputRequestNotFoundException;
import io.modelcontextprotocol.spec.McpSchema;

import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One {@code tools/call}: the user-input gate and the tool, as the chat runs them, with the chat's form replaced by
 * MCP elicitation. A question is an input request of the lifecycle (its id is the {@code elicitation/create} request's
 * JSON-RPC id), sent on this call's SSE stream; the client's answer is a new POST, possibly at another instance, that
 * completes or cancels the request ({@link McpEndpoint}); this call reads the request until it is settled or the wait
 * runs out ({@link McpSettings#elicitationWait()}, bounded by the invocation's deadline).
 */
final class ToolCall {

    private static final StructuredLog LOG = StructuredLog.of(ToolCall.class);
    private static final SecureRandom RANDOM = new SecureRandom();
    /** Rounds of question and answer one call may take (a tool that asks again after an answer). */
    private static final int MAX_QUESTIONS = 3;
    private static final Duration KEEP_ALIVE = Duration.ofSeconds(10);
    private static final Duration DEADLINE_MARGIN = Duration.ofSeconds(3);
    static final String CONFIRM = "confirm";

    private final McpSettings settings;
    private final McpToolServices services;
    private final UserInputPort userInput;
    private final McpSession session;
    private final String ownerId;
    private final EventStream stream;
    private final Optional<Instant> deadline;
    private final Clock clock;
    /** Every question this call asks starts with it, so a client's cancellation of the call finds them. */
    private final String questionPrefix;

    ToolCall(McpSettings settings, McpToolServices services, McpSession session, EventStream stream,
             Optional<Instant> deadline, Clock clock, JsonNode callId) {
        this.settings = settings;
        this.services = services;
        this.userInput = new UserInputLifecycle(services.inputRequests());
        this.session = session;
        this.ownerId = session.ownerId();
        this.stream = stream;
        this.deadline = deadline;
        this.clock = clock;
        this.questionPrefix = questionPrefix(callId);
    }

    /**
     * The prefix of the input-request ids of the questions a tools/call asks: {@code mcp_}, a digest of the call's
     * JSON-RPC id (any string or number the client chose), {@code _}. Ids stay short and safe as keys, and a
     * {@code notifications/cancelled} naming the call, arriving at any instance, finds its questions in the store.
     */
    static String questionPrefix(JsonNode callId) {
        try {
            byte[] digest = java.security.MessageDigest.getInstance("SHA-256")
                    .digest(callId.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
            return "mcp_" + HexFormat.of().formatHex(digest, 0, 8) + "_";
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e); // every JDK has SHA-256
        }
    }

    /** The conversation the lifecycle keys a session's questions and saved values by. */
    static String conversationId(McpSession session) {
        return "mcp-" + session.sessionId();
    }

    static String newId(String prefix) {
        byte[] bytes = new byte[16];
        RANDOM.nextBytes(bytes);
        return prefix + HexFormat.of().formatHex(bytes);
    }

    McpSchema.CallToolResult run(ToolDefinition tool, ObjectNode arguments) {
        return switch (tool.name()) {
            case McpToolCatalogue.ACCEPT_PREVIEW -> acceptPreview(arguments);
            case McpToolCatalogue.REJECT_PREVIEW, McpToolCatalogue.DISCARD_PREVIEW -> rejectPreview(arguments);
            case McpToolCatalogue.KEEP_PREVIEW -> keepPreview(arguments);
            default -> runTool(tool, arguments);
        };
    }

    private McpSchema.CallToolResult runTool(ToolDefinition tool, ObjectNode arguments) {
        String conversation = conversationId(session);
        Map<String, String> submitted = Map.of();
        for (int round = 0; round <= MAX_QUESTIONS; round++) {
            UserInputPort.Readiness readiness = userInput.check(ownerId, conversation, tool, arguments.deepCopy(), submitted);
            UserInputRequirement missing = readiness.missing().orElse(null);
            if (missing == null) {
                ToolOutcome outcome;
                StructuredLog.put("toolName", tool.name());
                try {
                    outcome = services.invoker().invoke(new ToolInvocation(tool.name(), newId("mcp_"), conversation, ownerId,
                            readiness.arguments(), readiness.sessionValues()));
                } finally {
                    StructuredLog.put("toolName", null);
                }
                if (outcome.status() != ToolOutcome.Status.NEEDS_INPUT) {
                    return ToolResults.of(outcome, services.catalogue().hasOutputSchema(tool.name()));
                }
                missing = outcome.request();
            }
            if (round == MAX_QUESTIONS) {
                break;
            }
            Asked asked = ask(tool.name(), missing, "Nothing was run and nothing was saved.");
            if (asked.result() != null) {
                return asked.result();
            }
            submitted = asked.values();
        }
        return ToolResults.failure(tool.name() + " still needs input after " + MAX_QUESTIONS + " answers; call it again with the values as arguments.");
    }

    /** The user's answer: the values (accepted), or the result to end the call with. */
    record Asked(Map<String, String> values, McpSchema.CallToolResult result) {
    }

    private Asked ask(String toolName, UserInputRequirement requirement, String onDecline) {
        if (ElicitationForms.hasSecret(requirement)) {
            // secrets never go through form mode (the spec forbids it): the page's own form takes them
            if (!session.elicitsUrls() || settings.pageUrl() == null) {
                return new Asked(null, ToolResults.failure(toolName + " needs a secret value, which is never asked for "
                        + "in a client's form. Enter it on the Tablewright page, then call the tool again."));
            }
        } else if (!session.elicitsForms()) {
            return new Asked(null, ToolResults.failure(ElicitationForms.whatIsNeeded(toolName, requirement)));
        }
        String conversation = conversationId(session);
        String requestId = newId(questionPrefix);
        try {
            userInput.request(ownerId, conversation, requestId, toolName, requirement);
        } catch (RuntimeException e) {
            LOG.error("the input request could not be created", e, "tool", toolName);
            return new Asked(null, ToolResults.failure("The question for " + toolName + " could not be asked just now; try again shortly."));
        }
        ObjectNode params = Json.object().put("message", requirement.reason());
        if (ElicitationForms.hasSecret(requirement)) {
            params.put("mode", "url").put("elicitationId", requestId)
                    .put("url", settings.pageUrl() + "?conversation=" + conversation + "&inputRequest=" + requestId);
        } else {
            if (isLatestRevision()) {
                params.put("mode", "form");
            }
            ObjectNode schema = ElicitationForms.requestedSchema(requirement);
            if (McpToolCatalogue.ACCEPT_PREVIEW.equals(toolName)) {
                ((ObjectNode) schema.path("properties").path(CONFIRM)).put("default", true);
            }
            params.set("requestedSchema", schema);
        }
        ObjectNode message = Json.object().put("jsonrpc", "2.0").put("id", requestId).put("method", "elicitation/create");
        message.set("params", params);
        stream.send(message);
        return await(requestId, onDecline);
    }

    private boolean isLatestRevision() {
        return io.modelcontextprotocol.spec.ProtocolVersions.MCP_2025_11_25.equals(session.protocolVersion());
    }

    private Asked await(String requestId, String onDecline) {
        String conversation = conversationId(session);
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
            services.inputRequests().cancel(ownerId, conversation, requestId);
        } catch (InputRequestConflictException | InputRequestNotFoundException e) {
            // answered in the meantime: that answer stands
            Optional<UserInputPort.Answer> late = userInput.answer(ownerId, conversation, requestId);
            if (late.isPresent() && !late.get().pending()) {
                return settled(late.get(), onDecline);
            }
        } catch (StoreUnavailableException e) {
            LOG.warn("could not cancel an unanswered question", "cause", String.valueOf(e.getMessage()));
        }
        return new Asked(null, ToolResults.failure("No answer came within " + settings.elicitationWait().toSeconds()
                + " seconds, so the question was withdrawn. " + onDecline + " Call the tool again to be asked again."));
    }

    private static Asked settled(UserInputPort.Answer answer, String onDecline) {
        if (answer.completed()) {
            return new Asked(answer.values(), null);
        }
        return new Asked(null, ToolResults.failure("The user declined to answer (the question is " + answer.status() + "). " + onDecline));
    }

    // ---- previews ----

    private McpSchema.CallToolResult acceptPreview(ObjectNode arguments) {
        Optional<PendingPreview> found = pendingPreview(arguments);
        if (found.isEmpty()) {
            return previewProblem(arguments);
        }
        PendingPreview preview = found.get();
        String name = preview.config().name() == null ? preview.previewId() : preview.config().name();
        StringBuilder question = new StringBuilder("Save \u201c").append(name).append("\u201d ")
                .append(preview.createsConfig() ? "as a new table config"
                        : "as version " + (preview.baseVersion() + 1) + " of config " + preview.configId()
                        + " (replacing version " + preview.baseVersion() + " as the current one)")
                .append('?');
        String changes = PreviewSummaries.changes(preview.summary());
        if (!changes.isEmpty()) {
            question.append("\nChanges: ").append(changes);
        }
        UserInputRequirement confirmation = new UserInputRequirement(question.toString(),
                List.of(new InputField(CONFIRM, "Save it", "Uncheck or decline to keep the preview pending", FieldType.BOOLEAN,
                        false, null, null, null, null, null, null)), false, null);
        Asked asked = ask(McpToolCatalogue.ACCEPT_PREVIEW, confirmation, "Nothing was saved; the preview is still pending.");
        if (asked.result() != null) {
            return asked.result();
        }
        if ("false".equals(asked.values().get(CONFIRM))) {
            return ToolResults.failure("The user did not confirm. Nothing was saved; the preview is still pending.");
        }
        return save(preview);
    }

    /**
     * The view's Keep: the user clicked it on this very preview, so nothing more is asked. It saves through the same
     * exactly-once path as {@link #acceptPreview}: a second click finds the preview accepted and saves nothing.
     */
    private McpSchema.CallToolResult keepPreview(ObjectNode arguments) {
        Optional<PendingPreview> found = pendingPreview(arguments);
        return found.isEmpty() ? previewProblem(arguments) : save(found.get());
    }

    /** Saves a pending preview once ({@link PreviewDecisions#accept}); a preview no longer pending saves nothing. */
    private McpSchema.CallToolResult save(PendingPreview preview) {
        try {
            PreviewDecisions.Accepted accepted = services.decisions().accept(ownerId, preview.previewId(), clock.instant());
            ObjectNode out = Json.object().put("accepted", true).put("previewId", preview.previewId())
                    .put("configId", accepted.config().configId()).put("version", accepted.config().version())
                    .put("created", accepted.created()).put("name", accepted.config().name());
            return ToolResults.success(out, true);
        } catch (VersionConflictException e) {
            return ToolResults.failure("previewId: the config changed since this preview was made; preview it again. Nothing was saved.");
        } catch (PreviewNotPendingException | PreviewNotFoundException | ConfigNotFoundException e) {
            return ToolResults.failure("previewId: " + e.getMessage() + ". Nothing was saved.");
        } catch (StoreUnavailableException e) {
            return ToolResults.failure("The config store is unavailable just now; nothing was saved. Try again shortly.");
        }
    }

    private McpSchema.CallToolResult rejectPreview(ObjectNode arguments) {
        Optional<PendingPreview> found = pendingPreview(arguments);
        if (found.isEmpty()) {
            return previewProblem(arguments);
        }
        try {
            services.decisions().reject(ownerId, found.get().previewId(), clock.instant());
            return ToolResults.success(Json.object().put("rejected", true).put("previewId", found.get().previewId()), false);
        } catch (PreviewNotPendingException | PreviewNotFoundException e) {
            return ToolResults.failure("previewId: " + e.getMessage());
        } catch (StoreUnavailableException e) {
            return ToolResults.failure("The preview store is unavailable just now; try again shortly.");
        }
    }

    private Optional<PendingPreview> pendingPreview(ObjectNode arguments) {
        JsonNode id = arguments.get("previewId");
        if (id == null || !id.isTextual() || id.textValue().isBlank()) {
            return Optional.empty();
        }
        return services.previews().find(ownerId, id.textValue())
                .filter(p -> p.statusAt(clock.instant()) == PreviewStatus.PENDING);
    }

    private McpSchema.CallToolResult previewProblem(ObjectNode arguments) {
        JsonNode id = arguments.get("previewId");
        if (id == null || !id.isTextual() || id.textValue().isBlank()) {
            return ToolResults.failure("previewId: the previewId preview_table_config answered (prv_...) is required");
        }
        Optional<PendingPreview> any = services.previews().find(ownerId, id.textValue());
        return ToolResults.failure(any.isEmpty() ? "previewId: there is no preview " + clip(id.textValue())
                : "previewId: the preview is " + any.get().statusAt(clock.instant()).name().toLowerCase(java.util.Locale.ROOT)
                + ", no longer pending");
    }

    private static String clip(String value) {
        return value.length() <= 60 ? value : value.substring(0, 60) + "…";
    }
}
