package dev.tablewright.agent;

import dev.tablewright.codec.ConfigJson;
import dev.tablewright.codec.TableBuilderStateJson;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.config.BuilderStateMapping;
import dev.tablewright.config.TableBuilderState;
import dev.tablewright.conversation.DraftSource;
import dev.tablewright.conversation.WorkingDraft;
import dev.tablewright.editable.EditableStatus;
import dev.tablewright.editable.TableSettingsFields;
import dev.tablewright.agent.prompt.ConfigSummary;
import dev.tablewright.json.Json;

import java.util.Optional;

/**
 * The config the turn is working on: the page's (from {@code context.config}, or {@code context.state} when it
 * already is in the Config wire format), then the last valid config an operation tool returned. Tools that take a
 * {@code config} get this one when the model leaves it out, so the model never copies a config by hand.
 */
final class WorkingConfig {

    private ObjectNode config;
    private final JsonNode rawState;
    private String configId;
    /** Where the config stands, for the conversation's stored draft. */
    private DraftSource source = DraftSource.TOOL_RESULT;
    private Long version;
    private String previewId;

    /**
     * The page's config or state when it sends one (it wins); otherwise {@code draft}: the conversation's stored
     * draft, or the saved config {@code context.configId} names, loaded by the caller.
     */
    WorkingConfig(PageContext context, Optional<WorkingDraft> draft) {
        JsonNode initial = context.config() != null ? context.config()
                : context.state() != null && context.state().has("data_source") ? context.state()
                : fromBuilderState(context.state());
        if (initial == null && context.state() == null && draft.isPresent()) {
            WorkingDraft d = draft.get();
            this.config = Json.objectLiteral(d.configJson());
            this.rawState = null;
            this.configId = d.configId();
            this.source = d.source();
            this.version = d.version();
            this.previewId = d.previewId();
            return;
        }
        this.config = initial == null ? null : ((ObjectNode) initial).deepCopy();
        this.rawState = initial == null ? context.state() : null;
        this.configId = context.configId() != null ? context.configId()
                : config != null && config.hasNonNull("id") ? config.get("id").asText() : null;
    }

    /** The draft to store for the conversation: the current config and where it stands; empty with no config. */
    Optional<WorkingDraft> draft() {
        return config == null ? Optional.empty()
                : Optional.of(new WorkingDraft(Json.write(config), source, configId, version, previewId));
    }

    /** A preview of the current config was made: the draft waits on the user's accept or reject. */
    void previewed(JsonNode preview) {
        source = DraftSource.PENDING_PREVIEW;
        previewId = preview.path("previewId").asText(null);
        if (preview.hasNonNull("configId")) {
            configId = preview.get("configId").asText();
        }
        if (preview.path("baseVersion").canConvertToLong()) {
            version = preview.get("baseVersion").asLong();
        }
    }

    /**
     * The builder's {@code TableBuilderState} mapped to a Config (the one mapping in shared); the page's own settings
     * ({@code name}, {@code description}, {@code pageSize}) ride along when the page sends them beside the state.
     * Null when there is no base table yet or the state does not read as one.
     */
    private static JsonNode fromBuilderState(JsonNode state) {
        if (state == null || !state.has("baseTable")) {
            return null;
        }
        try {
            TableBuilderState builder = TableBuilderStateJson.read(state);
            ObjectNode config = ConfigJson.write(BuilderStateMapping.toConfig(builder));
            for (String field : new String[]{"id", "name", "description"}) {
                if (state.hasNonNull(field)) {
                    config.set(field, state.get(field));
                }
            }
            if (state.path("pageSize").canConvertToInt()) {
                JsonNode vs = config.get("visual_settings");
                ObjectNode visual = vs != null && vs.isObject() ? (ObjectNode) vs : config.putObject("visual_settings");
                visual.put("page_size", state.get("pageSize").asInt());
            }
            return config;
        } catch (RuntimeException e) {
            return null; // rendered raw in the prompt instead
        }
    }

    ObjectNode current() {
        return config;
    }

    String configId() {
        return configId;
    }

    /** The config becomes {@code next} when it is one; true when it did. */
    boolean replace(JsonNode next) {
        if (next != null && next.isObject()) {
            config = ((ObjectNode) next).deepCopy();
            source = DraftSource.TOOL_RESULT;
            previewId = null;
            return true;
        }
        return false;
    }

    /** The prompt's state block. */
    String summary() {
        if (config != null) {
            ConfigJson.Read read = ConfigJson.read(config);
            return (read.ok() ? ConfigSummary.render(read.config())
                    : "Config (could not be summarised): " + clip(Json.write(config)) + "\n") + standing();
        }
        return rawState == null ? "No config loaded.\n" : "Builder state: " + clip(Json.write(rawState)) + "\n";
    }

    /** Where the config stands: unsaved, previewed and waiting for the user, or a saved version. */
    private String standing() {
        String saved = configId == null ? "a new config, never saved" : "config " + configId + (version == null ? "" : " version " + version);
        return "Where it stands: " + switch (source) {
            case TOOL_RESULT -> "not previewed yet (based on " + saved + ")";
            case PENDING_PREVIEW -> "previewed as " + previewId + ", waiting for the user to accept or reject it (it would "
                    + (configId == null ? "create a new config" : "update " + saved) + ")";
            case ACCEPTED_VERSION -> "saved as " + saved + ", with no unsaved change";
        } + ".\n";
    }

    EditableStatus editableFields() {
        String name = config == null ? textOf(rawState, "name") : textOf(config, "name");
        String description = config == null ? textOf(rawState, "description") : textOf(config, "description");
        JsonNode pageSize = config == null ? (rawState == null ? null : rawState.get("pageSize"))
                : config.path("visual_settings").get("page_size");
        return TableSettingsFields.of(configId, name, description,
                pageSize != null && pageSize.canConvertToInt() ? pageSize.asInt() : null);
    }

    /** Applies an accepted editable-field change to the config, so a later preview carries it; true when it did. */
    boolean applySetting(String field, String value) {
        if (config == null) {
            return false;
        }
        switch (field) {
            case TableSettingsFields.NAME, TableSettingsFields.DESCRIPTION -> {
                if (value == null) {
                    config.remove(field);
                } else {
                    config.put(field, value);
                }
            }
            case TableSettingsFields.PAGE_SIZE -> {
                JsonNode vs = config.get("visual_settings");
                ObjectNode visual = vs != null && vs.isObject() ? (ObjectNode) vs : config.putObject("visual_settings");
                visual.put("page_size", Integer.parseInt(value));
            }
            default -> {
                return false;
            }
        }
        return true;
    }

    private static String textOf(JsonNode node, String field) {
        return node != null && node.hasNonNull(field) ? node.get(field).asText() : null;
    }

    private static String clip(String s) {
        return s.length() <= 4000 ? s : s.substring(0, 4000) + "…";
    }
}
