package dev.tablewright.config;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/** Unknown fields of a config object, kept so a client's extra fields survive a round trip through any tool. */
final class Extras {
    private Extras() {
    }

    static Map<String, JsonNode> copy(Map<String, JsonNode> extra) {
        if (extra == null || extra.isEmpty()) {
            return new LinkedHashMap<>(0);
        }
        return new LinkedHashMap<>(extra);
    }

    static Map<String, JsonNode> none() {
        return Collections.emptyMap();
    }
}
