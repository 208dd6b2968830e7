package dev.tablewright.functions.configs;

import dev.tablewright.codec.ConfigJson;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.configstore.ConfigSummary;
import dev.tablewright.configstore.ConfigVersion;
import dev.tablewright.configstore.Page;
import dev.tablewright.configstore.StoredConfig;
import dev.tablewright.json.Json;
import dev.tablewright.preview.PendingPreview;

import java.time.Instant;

/** The JSON the config and preview routes answer (docs/api/openapi.yaml describes each). */
final class ApiViews {
    private ApiViews() {
    }

    static ObjectNode config(StoredConfig c) {
        ObjectNode out = Json.object();
        out.put("configId", c.configId());
        if (c.name() != null) {
            out.put("name", c.name());
        }
        out.put("version", c.version());
        out.put("createdAt", c.createdAt().toString());
        out.put("updatedAt", c.updatedAt().toString());
        out.set("config", ConfigJson.write(c.config()));
        return out;
    }

    static ObjectNode configs(Page<ConfigSummary> page) {
        ObjectNode out = Json.object();
        ArrayNode items = out.putArray("configs");
        for (ConfigSummary s : page.items()) {
            ObjectNode item = items.addObject();
            item.put("configId", s.configId());
            if (s.name() != null) {
                item.put("name", s.name());
            }
            if (s.description() != null) {
                item.put("description", s.description());
            }
            item.put("version", s.version());
            item.put("updatedAt", s.updatedAt().toString());
        }
        out.put("nextCursor", page.nextCursor());
        return out;
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
