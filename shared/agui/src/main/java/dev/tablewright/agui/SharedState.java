package dev.tablewright.agui;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.agent.Preview;
import dev.tablewright.json.Json;

import java.util.Optional;

/**
 * The run's shared state, {@code {workingConfig, preview}}, and what the client was last sent of it: a snapshot
 * sets it, each delta is the JSON Patch from it to the state as it now is, so deltas applied in order to the
 * snapshot give exactly the next snapshot.
 */
public final class SharedState {

    private ObjectNode workingConfig;
    private ObjectNode preview;
    private JsonNode lastSent;

    /** @param workingConfig the config the run starts from (null: none); {@code preview} the one pending (null: none) */
    public SharedState(ObjectNode workingConfig, ObjectNode preview) {
        this.workingConfig = workingConfig == null ? null : workingConfig.deepCopy();
        this.preview = preview == null ? null : preview.deepCopy();
    }

    public void workingConfig(ObjectNode config) {
        workingConfig = config == null ? null : config.deepCopy();
    }

    public void preview(Preview made) {
        preview = made == null ? null : json(made);
    }

    /** The preview was kept or discarded: nothing waits on the user any more. */
    public void previewSettled() {
        preview = null;
    }

    public ObjectNode current() {
        ObjectNode state = Json.object();
        state.set("workingConfig", workingConfig == null ? Json.MAPPER.nullNode() : workingConfig.deepCopy());
        state.set("preview", preview == null ? Json.MAPPER.nullNode() : preview.deepCopy());
        return state;
    }

    public AgUiEvent.StateSnapshot snapshot() {
        lastSent = current();
        return new AgUiEvent.StateSnapshot(lastSent.deepCopy());
    }

    /** The change since the state last sent; empty when nothing changed (or nothing was sent yet: send a snapshot). */
    public Optional<AgUiEvent.StateDelta> delta() {
        if (lastSent == null) {
            return Optional.empty();
        }
        ObjectNode now = current();
        ArrayNode patch = JsonPatch.diff(lastSent, now);
        lastSent = now;
        return patch.isEmpty() ? Optional.empty() : Optional.of(new AgUiEvent.StateDelta(patch));
    }

    /** A preview as the state shows it: what the user keeps or discards. */
    public static ObjectNode json(Preview p) {
        ObjectNode node = Json.object().put("previewId", p.previewId());
        Json.putIfPresent(node, "configId", p.configId());
        node.set("config", p.config());
        if (p.baseVersion() != null) {
            node.put("baseVersion", p.baseVersion());
        } else {
            node.putNull("baseVersion");
        }
        ArrayNode rows = node.putArray("rows");
        p.rows().forEach(rows::add);
        Json.putIfPresent(node, "summary", p.summary());
        if (p.expiresAt() != null) {
            node.put("expiresAt", p.expiresAt().toString());
        }
        return node.deepCopy();
    }
}
