package dev.tablewright.functions.configs;

import dev.tablewright.codec.ConfigJson;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.configstore.ConfigVersion;
import dev.tablewright.configstore.Page;
import dev.tablewright.json.Json;
import dev.tablewright.preview.PendingPreview;

import java.time.Instant;

/**
 * The JSON the config-version and preview routes answer (docs/api/openapi.yaml describes each); a saved config and
 * the listing are {@link dev.tablewright.configstore.StoredConfigJson}'s, shared with the config store tools.
 */
final class ApiViews {
    private ApiViews() {
    }

    static ObjectNode version(ConfigVersion v) {
        ObjectNode out = Json.object();
        out.put("configId", v.configId());
        out.put("version", v.version());
        if (v.name() != null) {
            out.put("name", v.name());
        }
        out.put("change", v.change() == null ? null : v.change().wireName());
        if (v.previewId() != null) {
            out.put("previewId", v.previewId());
        }
        if (v.restoredFrom() != null) {
            out.put("restoredFrom", v.restoredFrom());
        }
        out.put("createdAt", v.createdAt().toString());
        if (v.config() != null) {
            out.set("config", ConfigJson.write(v.config()));
        }
        return out;
    }

    static ObjectNode versions(Page<ConfigVersion> page) {
        ObjectNode out = Json.object();
        ArrayNode items = out.putArray("versions");
        page.items().forEach(v -> items.add(version(v)));
        out.put("nextCursor", page.nextCursor());
        return out;
    }

    /** A preview as its owner sees it at {@code now}: a pending one past its expiry reads as expired. */
    static ObjectNode preview(PendingPreview p, Instant now) {
        ObjectNode out = Json.object();
        out.put("previewId", p.previewId());
        out.put("status", p.statusAt(now).wireName());
        if (p.conversationId() != null) {
            out.put("conversationId", p.conversationId());
        }
        out.put("configId", p.configId());
        out.put("baseVersion", p.baseVersion());
        out.put("isUpdate", !p.createsConfig());
        if (p.description() != null) {
            out.put("description", p.description());
        }
        out.set("config", ConfigJson.write(p.config()));
        if (p.summary() != null) {
            out.set("summary", p.summary());
        }
        out.put("createdAt", p.createdAt().toString());
        out.put("expiresAt", p.expiresAt().toString());
        return out;
    }
}
