package dev.tablewright.dynamodb;

import dev.tablewright.codec.ConfigJson;
import com.fasterxml.jackson.core.JsonProcessingException;
import dev.tablewright.json.Json;
import dev.tablewright.preview.PendingPreview;
import dev.tablewright.preview.PreviewStatus;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Update;

import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

import static dev.tablewright.dynamodb.Attributes.n;
import static dev.tablewright.dynamodb.Attributes.s;

/**
 * The item layout of {@code PreviewsTable}: one item per preview, keyed {@code pk = OWNER#<ownerId>},
 * {@code sk = PREVIEW#<previewId>}, so a read under another owner's key finds nothing by construction.
 * {@code expiresAtEpoch} (seconds) is the table's TTL attribute; {@code expiresAt} (milliseconds) is what
 * reads and conditions compare, because TTL deletion is lazy.
 */
final class PreviewItems {
    static final String PK = "pk";
    static final String SK = "sk";

    private PreviewItems() {
    }

    static Map<String, AttributeValue> key(String ownerId, String previewId) {
        return Map.of(PK, s("OWNER#" + ownerId), SK, s("PREVIEW#" + previewId));
    }

    static Map<String, AttributeValue> toItem(PendingPreview p) {
        Map<String, AttributeValue> item = new HashMap<>(key(p.ownerId(), p.previewId()));
        item.put("ownerId", s(p.ownerId()));
        item.put("previewId", s(p.previewId()));
        if (p.conversationId() != null) {
            item.put("conversationId", s(p.conversationId()));
        }
        if (p.configId() != null) {
            item.put("configId", s(p.configId()));
            item.put("baseVersion", n(p.baseVersion()));
        }
        if (p.description() != null) {
            item.put("description", s(p.description()));
        }
        item.put("config", s(ConfigJson.writeString(p.config())));
        if (p.summary() != null) {
            item.put("summary", s(Json.write(p.summary())));
        }
        item.put("status", s(p.status().wireName()));
        item.put("createdAt", n(p.createdAt().toEpochMilli()));
        item.put("expiresAt", n(p.expiresAt().toEpochMilli()));
        item.put("expiresAtEpoch", n(p.expiresAt().getEpochSecond()));
        return item;
    }

    /**
     * The id of a preview's save: the same for the same preview (id, owner, conversation, the config it changes and
     * the config), so a save repeated for it is known as its own ({@link ConditionalWrite#WRITE_ID}).
     */
    static String saveId(Map<String, AttributeValue> item) {
        StringBuilder identity = new StringBuilder();
        for (String name : new String[]{PK, SK, "conversationId", "configId", "baseVersion", "config"}) {
            AttributeValue v = item.get(name);
            identity.append(v == null ? "" : v.s() != null ? v.s() : v.n()).append('\n');
        }
        try {
            return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                    .digest(identity.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    static PendingPreview fromItem(Map<String, AttributeValue> item) {
        try {
            String summary = Attributes.string(item, "summary");
            return new PendingPreview(
                    Attributes.string(item, "previewId"),
                    Attributes.string(item, "ownerId"),
                    Attributes.string(item, "conversationId"),
                    Attributes.string(item, "configId"),
                    Attributes.number(item, "baseVersion"),
                    Attributes.string(item, "description"),
                    ConfigJson.readWritten(Attributes.string(item, "config")),
                    summary == null ? null : Json.parse(summary),
                    PreviewStatus.fromWire(Attributes.string(item, "status")),
                    Attributes.epochMillis(item, "createdAt"),
                    Attributes.epochMillis(item, "expiresAt"));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("stored preview is not readable JSON: " + e.getOriginalMessage(), e);
        }
    }

    /**
     * Moves a preview from pending to {@code to}, on condition that it exists, is pending and has not expired at
     * {@code now}. {@code extra} attributes (the accepted config id and version) are set with it.
     */
    static Update transition(String table, String ownerId, String previewId, PreviewStatus to, Instant now,
                             Map<String, AttributeValue> extra) {
        Map<String, String> names = new HashMap<>(Map.of("#status", "status", "#expiresAt", "expiresAt"));
        Map<String, AttributeValue> values = new HashMap<>(Map.of(
                ":to", s(to.wireName()),
                ":pending", s(PreviewStatus.PENDING.wireName()),
                ":now", n(now.toEpochMilli()),
                ":decidedAt", n(now.toEpochMilli())));
        StringBuilder set = new StringBuilder("SET #status = :to, decidedAt = :decidedAt");
        int i = 0;
        for (Map.Entry<String, AttributeValue> e : extra.entrySet()) {
            names.put("#x" + i, e.getKey());
            values.put(":x" + i, e.getValue());
            set.append(", #x").append(i).append(" = :x").append(i);
            i++;
        }
        return Update.builder()
                .tableName(table)
                .key(key(ownerId, previewId))
                .updateExpression(set.toString())
                .conditionExpression("attribute_exists(pk) AND #status = :pending AND #expiresAt > :now")
                .expressionAttributeNames(names)
                .expressionAttributeValues(values)
                .build();
    }
}
