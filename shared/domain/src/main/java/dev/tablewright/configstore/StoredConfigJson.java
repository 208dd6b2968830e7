package dev.tablewright.configstore;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.codec.ConfigJson;
import dev.tablewright.json.Json;

/**
 * The saved configs as every channel answers them: the {@code /configs} routes (docs/api/openapi.yaml,
 * {@code StoredConfig} and {@code ConfigPage}) and the config store tools ({@code get_table_config},
 * {@code list_table_configs}, ...). Keys are camelCase, as in every answer; the config itself is the Config wire
 * format (snake_case), written by {@link ConfigJson}. See docs/config-store.md, "Key case".
 */
public final class StoredConfigJson {

    private StoredConfigJson() {
    }

    /** One saved config at its current version: {@code {configId, name?, version, createdAt, updatedAt, config}}. */
    public static ObjectNode config(StoredConfig stored) {
        ObjectNode out = Json.object();
        out.put("configId", stored.configId());
        if (stored.name() != null) {
            out.put("name", stored.name());
        }
        out.put("version", stored.version());
        out.put("createdAt", stored.createdAt().toString());
        out.put("updatedAt", stored.updatedAt().toString());
        out.set("config", ConfigJson.write(stored.config()));
        return out;
    }

    /**
     * A page of the owner's configs without their bodies: {@code {configs: [{configId, name?, description?, version,
     * updatedAt}], nextCursor}}, {@code nextCursor} null on the last page.
     */
    public static ObjectNode page(Page<ConfigSummary> page) {
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
}
