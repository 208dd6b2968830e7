package dev.tablewright.dynamodb;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.toolcontract.InputFieldJson;
import dev.tablewright.json.Json;
import dev.tablewright.json.JsonFields;
import dev.tablewright.toolcontract.InputField;
import dev.tablewright.toolcontract.ValueScope;
import dev.tablewright.userinput.InputRequest;
import dev.tablewright.userinput.RequestStatus;
import dev.tablewright.userinput.SavedValue;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The item layout of {@code UserInputTable} (one table, keys {@code pk}/{@code sk}, TTL attribute {@code expiresAt}
 * in epoch seconds). The partition key starts with the owner, so an owner's key can never reach another's items:
 * <pre>
 * pk                                   sk                 item
 * O#&lt;owner&gt;#C#&lt;conversationId&gt;       #CONVERSATION      the conversation (exists once a request was created)
 * O#&lt;owner&gt;#C#&lt;conversationId&gt;       R#&lt;toolCallId&gt;      an input request
 * O#&lt;owner&gt;#C#&lt;conversationId&gt;       V#&lt;name&gt;           a value saved for the conversation
 * O#&lt;owner&gt;#U                        V#&lt;name&gt;           a value saved for the user (no expiry)
 * </pre>
 * Access patterns: one request = GetItem; a conversation's requests = Query pk, sk begins_with R#; its values =
 * Query pk, sk begins_with V#; the user's values = Query O#owner#U. Every read is strongly consistent, and every
 * item records {@code ownerId}.
 */
final class UserInputItems {

    static final String PK = "pk";
    static final String SK = "sk";
    static final String CONVERSATION_SK = "#CONVERSATION";
    static final String REQUEST_PREFIX = "R#";
    static final String VALUE_PREFIX = "V#";

    private UserInputItems() {
    }

    /** Owner ids come from the authorizer (a JWT sub, an IAM ARN): escape the separator so keys stay unambiguous. */
    static String owner(String ownerId) {
        return "O#" + ownerId.replace("%", "%25").replace("#", "%23");
    }

    static String conversationPk(String ownerId, String conversationId) {
        return owner(ownerId) + "#C#" + conversationId;
    }

    static String userPk(String ownerId) {
        return owner(ownerId) + "#U";
    }

    static Map<String, AttributeValue> key(String pk, String sk) {
        Map<String, AttributeValue> key = new HashMap<>();
        key.put(PK, s(pk));
        key.put(SK, s(sk));
        return key;
    }

    static Map<String, AttributeValue> requestKey(String ownerId, String conversationId, String toolCallId) {
        return key(conversationPk(ownerId, conversationId), REQUEST_PREFIX + toolCallId);
    }

    static Map<String, AttributeValue> requestItem(InputRequest r) {
        Map<String, AttributeValue> item = requestKey(r.ownerId(), r.conversationId(), r.toolCallId());
        item.put("kind", s("request"));
        item.put("ownerId", s(r.ownerId()));
        item.put("conversationId", s(r.conversationId()));
        item.put("toolCallId", s(r.toolCallId()));
        item.put("toolName", s(r.toolName()));
        item.put("reason", s(r.reason()));
        item.put("fields", s(Json.write(InputFieldJson.write(r.fields()))));
        item.put("saveForSession", AttributeValue.fromBool(r.saveForSession()));
        item.put("scope", s(r.scope().wireName()));
        item.put("status", s(r.status().wireName()));
        item.put("createdAt", s(r.createdAt().toString()));
        item.put("expiresAt", epoch(r.expiresAt()));
        return item;
    }

    static InputRequest request(Map<String, AttributeValue> item) {
        Map<String, String> values = new LinkedHashMap<>();
        AttributeValue v = item.get("values");
        if (v != null && v.hasM()) {
            v.m().forEach((name, value) -> values.put(name, value.s()));
        }
        List<InputField> fields;
        try {
            fields = new ArrayList<>();
            for (JsonNode field : Json.parse(item.get("fields").s())) {
                fields.add(InputFieldJson.read(JsonFields.of((ObjectNode) field, "fields", (path, problem) -> {
                    throw new IllegalStateException("stored input request has an unreadable field: " + path + ": " + problem);
                }, JsonFields.Wording.PLAIN), false));
            }
        } catch (java.io.IOException | ClassCastException e) {
            throw new IllegalStateException("stored input request has unreadable fields", e);
        }
        return new InputRequest(str(item, "ownerId"), str(item, "conversationId"), str(item, "toolCallId"),
                str(item, "toolName"), str(item, "reason"), fields,
                item.containsKey("saveForSession") && Boolean.TRUE.equals(item.get("saveForSession").bool()),
                ValueScope.fromWire(str(item, "scope")), RequestStatus.fromWire(str(item, "status")), values,
                instant(item, "createdAt"), instant(item, "completedAt"), fromEpoch(item.get("expiresAt")));
    }

    static SavedValue value(Map<String, AttributeValue> item) {
        return new SavedValue(str(item, "name"), str(item, "value"),
                item.containsKey("secret") && Boolean.TRUE.equals(item.get("secret").bool()),
                ValueScope.fromWire(str(item, "scope")), str(item, "toolName"), str(item, "toolCallId"),
                instant(item, "savedAt"), item.containsKey("expiresAt") ? fromEpoch(item.get("expiresAt")) : null);
    }

    static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }

    static AttributeValue epoch(Instant instant) {
        return AttributeValue.fromN(Long.toString(instant.getEpochSecond()));
    }

    private static Instant fromEpoch(AttributeValue v) {
        return v == null ? null : Instant.ofEpochSecond(Long.parseLong(v.n()));
    }

    private static String str(Map<String, AttributeValue> item, String name) {
        AttributeValue v = item.get(name);
        return v == null ? null : v.s();
    }

    private static Instant instant(Map<String, AttributeValue> item, String name) {
        String v = str(item, name);
        return v == null ? null : Instant.parse(v);
    }
}
