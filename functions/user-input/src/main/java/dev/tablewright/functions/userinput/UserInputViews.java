package dev.tablewright.functions.userinput;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.toolcontract.InputFieldJson;
import dev.tablewright.json.Json;
import dev.tablewright.userinput.InputRequest;
import dev.tablewright.userinput.SavedValue;

import java.time.Instant;

/**
 * An input request and a saved value as every answer of the input-request API shows them: status as of now,
 * instants as ISO-8601 text, absent values left out, and every secret's value masked.
 */
final class UserInputViews {

    /** What a secret's value reads as in every answer. */
    static final String MASK = "********";

    private UserInputViews() {
    }

    /** {@code requestId} is {@code <conversationId>/<toolCallId>}, the pair that names a request. */
    static ObjectNode request(InputRequest r, Instant now) {
        ObjectNode o = Json.object();
        o.put("requestId", r.conversationId() + "/" + r.toolCallId());
        Json.putIfNotEmpty(o, "conversationId", r.conversationId());
        Json.putIfNotEmpty(o, "toolCallId", r.toolCallId());
        Json.putIfNotEmpty(o, "toolName", r.toolName());
        Json.putIfNotEmpty(o, "reason", r.reason());
        if (r.fields() != null && !r.fields().isEmpty()) {
            o.set("fields", InputFieldJson.write(r.fields()));
        }
        o.put("saveForSession", r.saveForSession());
        o.put("scope", r.scope().wireName());
        o.put("status", r.statusAt(now).wireName());
        if (r.values() != null && !r.values().isEmpty()) {
            ObjectNode values = o.putObject("values");
            r.values().forEach((name, value) -> values.put(name, r.isSecret(name) ? MASK : value));
        }
        putInstant(o, "createdAt", r.createdAt());
        putInstant(o, "completedAt", r.completedAt());
        putInstant(o, "expiresAt", r.expiresAt());
        return o;
    }

    static ObjectNode saved(SavedValue v) {
        ObjectNode o = Json.object();
        Json.putIfPresent(o, "name", v.name());
        Json.putIfPresent(o, "value", v.secret() ? MASK : v.value());
        o.put("secret", v.secret());
        o.put("scope", v.scope().wireName());
        Json.putIfPresent(o, "toolName", v.toolName());
        putInstant(o, "savedAt", v.savedAt());
        putInstant(o, "expiresAt", v.expiresAt());
        return o;
    }

    private static void putInstant(ObjectNode o, String key, Instant instant) {
        Json.putIfPresent(o, key, instant == null ? null : instant.toString());
    }
}
