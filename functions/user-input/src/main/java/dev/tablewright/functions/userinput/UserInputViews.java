package dev.tablewright.functions.userinput;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.tool.InputFieldJson;
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
        putText(o, "conversationId", r.conversationId());
        putText(o, "toolCallId", r.toolCallId());
        putText(o, "toolName", r.toolName());
        putText(o, "reason", r.reason());
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
        putNonNull(o, "name", v.name());
        putNonNull(o, "value", v.secret() ? MASK : v.value());
        o.put("secret", v.secret());
        o.put("scope", v.scope().wireName());
        putNonNull(o, "toolName", v.toolName());
        putInstant(o, "savedAt", v.savedAt());
        putInstant(o, "expiresAt", v.expiresAt());
        return o;
    }

    private static void putText(ObjectNode o, String key, String value) {
        if (value != null && !value.isEmpty()) {
            o.put(key, value);
        }
    }

    private static void putNonNull(ObjectNode o, String key, String value) {
        if (value != null) {
            o.put(key, value);
        }
    }

    private static void putInstant(ObjectNode o, String key, Instant instant) {
        if (instant != null) {
            o.put(key, instant.toString());
        }
    }
}
