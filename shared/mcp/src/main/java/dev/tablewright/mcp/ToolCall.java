package dev.tablewright.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.agent.toolcall.UserInputPort;
import dev.tablewright.configstore.ConfigNotFoundException;
import dev.tablewright.configstore.VersionConflictException;
import dev.tablewright.json.Json;
import dev.tablewright.logging.StructuredLog;
import dev.tablewright.preview.PendingPreview;
import dev.tablewright.preview.PreviewDecisions;
import dev.tablewright.preview.PreviewNotFoundException;
import dev.tablewright.preview.PreviewNotPendingException;
import dev.tablewright.preview.PreviewStatus;
import dev.tablewright.store.StoreUnavailableException;
import dev.tablewright.toolcontract.FieldType;
import dev.tablewright.toolcontract.InputField;
import dev.tablewright.toolcontract.ToolDefinition;
import dev.tablewright.toolcontract.ToolInvocation;
import dev.tablewright.toolcontract.ToolOutcome;
import dev.tablewright.toolcontract.UserInputRequirement;
import dev.tablewright.catalogue.DataSources;
import dev.tablewright.userinput.UserInputGate;
import io.modelcontextprotocol.spec.McpSchema;

import java.security.SecureRandom;
import java.time.Clock;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One {@code tools/call}: the user-input gate and the tool, as the chat runs them, with the chat's form replaced by
 * MCP elicitation through {@link Questions} (on the call's stream for a 2025 session, as {@code input_required}
 * for a 2026-07-28 request).
 */
final class ToolCall {

    /** How a call ends: a tool result, or (2026-07-28) an {@code input_required} result to retry with the answers. */
    record Outcome(McpSchema.CallToolResult complete, ObjectNode inputRequired, String dataSourceChosen) {

        static Outcome of(McpSchema.CallToolResult result) {
            return new Outcome(result, null, null);
        }
    }

    private static final SecureRandom RANDOM = new SecureRandom();
    /** Rounds of question and answer one call may take (a tool that asks again after an answer). */
    static final int MAX_QUESTIONS = 3;
    static final String CONFIRM = "confirm";

    private final McpToolServices services;
    private final UserInputPort userInput;
    private final McpCaller caller;
    private final Questions questions;
    private final Clock clock;
    /** Values the call starts with (a 2026 retry: the answers of earlier rounds, carried in its requestState). */
    private final Map<String, String> carried;
    /** 2026: the saved values are read only when the arguments alone do not let the tool run (no store read otherwise). */
    private final boolean savedValuesOnlyWhenNeeded;

    ToolCall(McpToolServices services, UserInputPort userInput, McpCaller caller, Questions questions, Clock clock,
             Map<String, String> carried, boolean savedValuesOnlyWhenNeeded) {
        this.services = services;
        this.userInput = userInput;
        this.caller = caller;
        this.questions = questions;
        this.clock = clock;
        this.carried = carried;
        this.savedValuesOnlyWhenNeeded = savedValuesOnlyWhenNeeded;
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

    static String newId(String prefix) {
        byte[] bytes = new byte[16];
        RANDOM.nextBytes(bytes);
        return prefix + HexFormat.of().formatHex(bytes);
    }

    /** An answer that ends the call with this result. */
    static Questions.Asked ends(McpSchema.CallToolResult result) {
        return new Questions.Asked(null, Outcome.of(result));
    }

    Outcome run(ToolDefinition tool, ObjectNode arguments) {
        return switch (tool.name()) {
            case McpToolCatalogue.ACCEPT_PREVIEW -> acceptPreview(arguments);
            case McpToolCatalogue.REJECT_PREVIEW, McpToolCatalogue.DISCARD_PREVIEW -> Outcome.of(rejectPreview(arguments));
            case McpToolCatalogue.KEEP_PREVIEW -> Outcome.of(keepPreview(arguments));
            default -> runTool(tool, arguments);
        };
    }

    private Outcome runTool(ToolDefinition tool, ObjectNode arguments) {
        String conversation = caller.conversationId();
        String ownerId = caller.ownerId();
        Map<String, String> submitted = new LinkedHashMap<>(carried);
        for (int round = 0; round <= MAX_QUESTIONS; round++) {
            UserInputPort.Readiness readiness = readiness(tool, arguments, submitted);
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
                if (!(outcome instanceof ToolOutcome.NeedsInput needs)) {
                    return new Outcome(ToolResults.of(outcome, services.catalogue().hasOutputSchema(tool.name())), null,
                            dataSourceChosen(tool, arguments, readiness));
                }
                missing = needs.request();
            }
            if (round == MAX_QUESTIONS) {
                break;
            }
            Questions.Asked asked = questions.ask(tool.name(), missing, submitted, "Nothing was run and nothing was saved.");
            if (asked.end() != null) {
                return asked.end();
            }
            submitted.putAll(asked.values());
        }
        return Outcome.of(ToolResults.failure(tool.name() + " still needs input after " + MAX_QUESTIONS
                + " answers; call it again with the values as arguments."));
    }

    private UserInputPort.Readiness readiness(ToolDefinition tool, ObjectNode arguments, Map<String, String> submitted) {
        if (savedValuesOnlyWhenNeeded
                && UserInputGate.INSTANCE.decide(tool, arguments.deepCopy(), submitted) instanceof UserInputGate.Proceed proceed) {
            return new UserInputPort.Readiness(proceed.arguments(), Map.copyOf(submitted), Optional.empty());
        }
        return userInput.check(caller.ownerId(), caller.conversationId(), tool, arguments.deepCopy(), submitted);
    }

    /** The data source a data-source tool ran on when the arguments did not name it (asked, or remembered). */
    private static String dataSourceChosen(ToolDefinition tool, ObjectNode arguments, UserInputPort.Readiness readiness) {
        if (!tool.worksOnDataSource() || arguments.path(DataSources.FIELD).isTextual()) {
            return null;
        }
        JsonNode chosen = readiness.arguments().get(DataSources.FIELD);
        if (chosen != null && chosen.isTextual()) {
            return chosen.textValue();
        }
        return readiness.sessionValues().get(DataSources.FIELD);
    }

    // ---- previews ----

    private Outcome acceptPreview(ObjectNode arguments) {
        Optional<PendingPreview> found = pendingPreview(arguments);
        if (found.isEmpty()) {
            return Outcome.of(previewProblem(arguments));
        }
        PendingPreview preview = found.get();
        Questions.Asked asked = questions.ask(McpToolCatalogue.ACCEPT_PREVIEW, confirmation(preview), carried,
                "Nothing was saved; the preview is still pending.");
        if (asked.end() != null) {
            return asked.end();
        }
        if ("false".equals(asked.values().get(CONFIRM))) {
            return Outcome.of(ToolResults.failure("The user did not confirm. Nothing was saved; the preview is still pending."));
        }
        return Outcome.of(save(preview));
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
            PreviewDecisions.Accepted accepted = services.decisions().accept(caller.ownerId(), preview.previewId(), clock.instant());
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

    /** The save confirmation: the preview's name, new config or which version, and its changes. */
    private static UserInputRequirement confirmation(PendingPreview preview) {
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
        return new UserInputRequirement(question.toString(),
                List.of(new InputField(CONFIRM, "Save it", "Uncheck or decline to keep the preview pending", FieldType.BOOLEAN,
                        false, null, null, null, null, null, null)), false, null);
    }

    private McpSchema.CallToolResult rejectPreview(ObjectNode arguments) {
        Optional<PendingPreview> found = pendingPreview(arguments);
        if (found.isEmpty()) {
            return previewProblem(arguments);
        }
        try {
            services.decisions().reject(caller.ownerId(), found.get().previewId(), clock.instant());
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
        return services.previews().find(caller.ownerId(), id.textValue())
                .filter(p -> p.statusAt(clock.instant()) == PreviewStatus.PENDING);
    }

    private McpSchema.CallToolResult previewProblem(ObjectNode arguments) {
        JsonNode id = arguments.get("previewId");
        if (id == null || !id.isTextual() || id.textValue().isBlank()) {
            return ToolResults.failure("previewId: the previewId preview_table_config answered (prv_...) is required");
        }
        Optional<PendingPreview> any = services.previews().find(caller.ownerId(), id.textValue());
        return ToolResults.failure(any.isEmpty() ? "previewId: there is no preview " + JsonRpc.clip(id.textValue())
                : "previewId: the preview is " + any.get().statusAt(clock.instant()).name().toLowerCase(java.util.Locale.ROOT)
                + ", no longer pending");
    }
}
