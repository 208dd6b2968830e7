package dev.tablewright.dynamodb;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.configstore.InvalidCursorException;
import dev.tablewright.configstore.Page;
import dev.tablewright.conversation.ConversationBusyException;
import dev.tablewright.conversation.ConversationStore;
import dev.tablewright.conversation.ConversationSummary;
import dev.tablewright.conversation.ConversationTurn;
import dev.tablewright.conversation.DraftSource;
import dev.tablewright.conversation.StoredConversation;
import dev.tablewright.conversation.StoredMessage;
import dev.tablewright.conversation.WorkingDraft;
import dev.tablewright.json.Json;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/**
 * {@link ConversationStore} on DynamoDB ({@code ConversationsTable}, env {@code CONVERSATIONS_TABLE}).
 *
 * <p>Layout, one partition per owner ({@code pk = OWNER#<ownerId>}):
 * <ul>
 *   <li>{@code sk = CONV#<id>}: the conversation: title, times, draft, the agent's {@code memory} (gzipped),
 *       {@code revision}, {@code bodyParts}; and the
 *       list index keys {@code listPk}/{@code listSk} (index {@code byUpdated}: newest first).</li>
 *   <li>{@code sk = BODY#<id>#<token>#<n>}: the messages as one gzipped JSON array, split into parts that each
 *       fit an item. Every turn writes its body under a fresh token, then points the conversation at it
 *       (conditioned on the revision it read, so two turns at once never lose each other's messages: the later one
 *       re-reads and retries), then deletes the old parts. A reader always sees one whole body.</li>
 * </ul>
 * Every item carries {@code expiresAtEpoch} (the table's TTL), renewed by each turn: a conversation left alone for
 * the TTL disappears whole.
 */
public final class DynamoConversationStore implements ConversationStore {

    /** The index that lists an owner's conversations by last update. */
    public static final String LIST_INDEX = "byUpdated";
    /** Gzipped bytes per body part: well under the 400 KB item limit. */
    static final int PART_BYTES = 300_000;
    private static final int SAVE_ATTEMPTS = 8;
    private static final java.security.SecureRandom RANDOM = new java.security.SecureRandom();

    private final DynamoDbClient dynamo;
    private final String table;
    private final Duration ttl;

    public DynamoConversationStore(DynamoDbClient dynamo, String table, Duration ttl) {
        this.dynamo = dynamo;
        this.table = table;
        this.ttl = ttl;
    }

    @Override
    public Optional<StoredConversation> find(String ownerId, String conversationId) {
        try {
            for (int attempt = 1; ; attempt++) {
                Optional<Map<String, AttributeValue>> meta = meta(ownerId, conversationId);
                if (meta.isEmpty()) {
                    return Optional.empty();
                }
                Optional<List<StoredMessage>> messages = readBody(ownerId, conversationId, meta.get());
                if (messages.isPresent()) {
                    return Optional.of(new StoredConversation(summary(meta.get()), messages.get(), draft(meta.get()), memory(meta.get())));
                }
                if (attempt == SAVE_ATTEMPTS) {
                    throw new ConversationBusyException(conversationId);
                }
                // a turn replaced the body between the two reads: read the new one
            }
        } catch (SdkException e) {
            throw DynamoDbFaults.translate(e);
        }
    }

    @Override
    public Page<ConversationSummary> list(String ownerId, int limit, String cursor) {
        QueryRequest.Builder request = QueryRequest.builder().tableName(table).indexName(LIST_INDEX)
                .keyConditionExpression("listPk = :o")
                .expressionAttributeValues(Map.of(":o", Attributes.s(owner(ownerId))))
                .scanIndexForward(false)
                .limit(limit);
        if (cursor != null && !cursor.isEmpty()) {
            request.exclusiveStartKey(decodeCursor(ownerId, cursor));
        }
        try {
            QueryResponse response = dynamo.query(request.build());
            List<ConversationSummary> items = response.items().stream().map(DynamoConversationStore::summary).toList();
            String next = response.hasLastEvaluatedKey() && !response.lastEvaluatedKey().isEmpty()
                    ? encodeCursor(response.lastEvaluatedKey()) : null;
            return new Page<>(items, next);
        } catch (SdkException e) {
            throw DynamoDbFaults.translate(e);
        }
    }

    @Override
    public void saveTurn(String ownerId, String conversationId, ConversationTurn turn, Instant now) {
        try {
            for (int attempt = 1; ; attempt++) {
                Optional<Map<String, AttributeValue>> meta = meta(ownerId, conversationId);
                Optional<List<StoredMessage>> stored = meta.isPresent() ? readBody(ownerId, conversationId, meta.get()) : Optional.of(List.of());
                if (stored.isEmpty()) {
                    continue; // replaced between the reads
                }
                List<StoredMessage> messages = new ArrayList<>(stored.get());
                merge(messages, turn.messages());
                long revision = meta.map(m -> Attributes.number(m, "revision")).orElse(0L) + 1;
                String bodyToken = revision + "-" + Long.toHexString(RANDOM.nextLong());
                long expires = now.plus(ttl).getEpochSecond();
                List<byte[]> parts = split(gzip(Json.write(toJson(messages)).getBytes(StandardCharsets.UTF_8)));
                for (int i = 0; i < parts.size(); i++) {
                    dynamo.putItem(PutItemRequest.builder().tableName(table).item(Map.of(
                            "pk", Attributes.s(owner(ownerId)),
                            "sk", Attributes.s(bodyPrefix(conversationId, bodyToken) + i),
                            "body", AttributeValue.fromB(SdkBytes.fromByteArray(parts.get(i))),
                            "expiresAtEpoch", Attributes.n(expires))).build());
                }
                Map<String, AttributeValue> item = new HashMap<>(meta.orElseGet(Map::of));
                item.put("pk", Attributes.s(owner(ownerId)));
                item.put("sk", Attributes.s(metaKey(conversationId)));
                item.put("conversationId", Attributes.s(conversationId));
                item.putIfAbsent("createdAt", Attributes.s(now.toString()));
                item.put("updatedAt", Attributes.s(now.toString()));
                item.put("listPk", Attributes.s(owner(ownerId)));
                item.put("listSk", Attributes.s(listSortKey(now, conversationId)));
                item.put("revision", Attributes.n(revision));
                item.put("bodyToken", Attributes.s(bodyToken));
                item.put("bodyParts", Attributes.n(parts.size()));
                item.put("messageCount", Attributes.n(messages.size()));
                item.put("expiresAtEpoch", Attributes.n(expires));
                if (!item.containsKey("title") && turn.titleIfNew() != null && !turn.titleIfNew().isBlank()) {
                    item.put("title", Attributes.s(turn.titleIfNew()));
                }
                turn.draft().ifPresent(d -> putDraft(item, d));
                turn.memory().ifPresent(m -> item.put("memory", AttributeValue.fromB(SdkBytes.fromByteArray(gzip(m.getBytes(StandardCharsets.UTF_8))))));
                PutItemRequest.Builder put = PutItemRequest.builder().tableName(table).item(item);
                if (meta.isPresent()) {
                    put.conditionExpression("revision = :r")
                            .expressionAttributeValues(Map.of(":r", Attributes.n(revision - 1)));
                } else {
                    put.conditionExpression("attribute_not_exists(pk)");
                }
                try {
                    dynamo.putItem(put.build());
                } catch (ConditionalCheckFailedException raced) {
                    deleteBody(ownerId, conversationId, bodyToken, parts.size());
                    if (attempt == SAVE_ATTEMPTS) {
                        throw new ConversationBusyException(conversationId);
                    }
                    continue;
                }
                meta.ifPresent(m -> deleteBody(ownerId, conversationId, Attributes.string(m, "bodyToken"),
                        Attributes.number(m, "bodyParts").intValue()));
                return;
            }
        } catch (SdkException e) {
            throw DynamoDbFaults.translate(e);
        }
    }

    @Override
    public boolean rename(String ownerId, String conversationId, String title, Instant now) {
        try {
            dynamo.updateItem(b -> b.tableName(table).key(key(ownerId, metaKey(conversationId)))
                    .conditionExpression("attribute_exists(pk)")
                    .updateExpression("SET title = :t, updatedAt = :u, listSk = :l")
                    .expressionAttributeValues(Map.of(":t", Attributes.s(title), ":u", Attributes.s(now.toString()),
                            ":l", Attributes.s(listSortKey(now, conversationId)))));
            return true;
        } catch (ConditionalCheckFailedException e) {
            return false;
        } catch (SdkException e) {
            throw DynamoDbFaults.translate(e);
        }
    }

    @Override
    public boolean delete(String ownerId, String conversationId) {
        try {
            Map<String, AttributeValue> old = dynamo.deleteItem(DeleteItemRequest.builder().tableName(table)
                    .key(key(ownerId, metaKey(conversationId))).returnValues(ReturnValue.ALL_OLD).build()).attributes();
            // every revision's parts, including any a crashed save left behind
            Map<String, AttributeValue> start = null;
            do {
                QueryRequest.Builder q = QueryRequest.builder().tableName(table)
                        .keyConditionExpression("pk = :o AND begins_with(sk, :b)")
                        .expressionAttributeValues(Map.of(":o", Attributes.s(owner(ownerId)),
                                ":b", Attributes.s("BODY#" + conversationId + "#")))
                        .projectionExpression("pk, sk");
                if (start != null) {
                    q.exclusiveStartKey(start);
                }
                QueryResponse r = dynamo.query(q.build());
                r.items().forEach(i -> dynamo.deleteItem(b -> b.tableName(table).key(i)));
                start = r.hasLastEvaluatedKey() && !r.lastEvaluatedKey().isEmpty() ? r.lastEvaluatedKey() : null;
            } while (start != null);
            return old != null && !old.isEmpty();
        } catch (SdkException e) {
            throw DynamoDbFaults.translate(e);
        }
    }

    // ---- items ----

    private Optional<Map<String, AttributeValue>> meta(String ownerId, String conversationId) {
        Map<String, AttributeValue> item = dynamo.getItem(b -> b.tableName(table)
                .key(key(ownerId, metaKey(conversationId))).consistentRead(true)).item();
        return item == null || item.isEmpty() ? Optional.empty() : Optional.of(item);
    }

    /** The messages of the body the conversation item points at; empty if a newer turn has replaced that body since. */
    private Optional<List<StoredMessage>> readBody(String ownerId, String conversationId, Map<String, AttributeValue> meta) {
        String token = Attributes.string(meta, "bodyToken");
        int parts = Attributes.number(meta, "bodyParts").intValue();
        ByteArrayOutputStream gzipped = new ByteArrayOutputStream();
        for (int i = 0; i < parts; i++) {
            String sk = bodyPrefix(conversationId, token) + i;
            Map<String, AttributeValue> part = dynamo.getItem(b -> b.tableName(table).consistentRead(true)
                    .key(key(ownerId, sk))).item();
            if (part == null || part.isEmpty()) {
                return Optional.empty();
            }
            gzipped.writeBytes(part.get("body").b().asByteArray());
        }
        try {
            return Optional.of(fromJson(Json.parse(gunzip(gzipped.toByteArray()))));
        } catch (IOException e) {
            throw new IllegalStateException("conversation '" + conversationId + "' has an unreadable body", e);
        }
    }

    private void deleteBody(String ownerId, String conversationId, String token, int parts) {
        for (int i = 0; i < parts; i++) {
            String sk = bodyPrefix(conversationId, token) + i;
            dynamo.deleteItem(b -> b.tableName(table).key(key(ownerId, sk)));
        }
    }

    private static void merge(List<StoredMessage> messages, List<StoredMessage> changed) {
        for (StoredMessage m : changed) {
            int at = -1;
            for (int i = 0; i < messages.size(); i++) {
                if (messages.get(i).id().equals(m.id())) {
                    at = i;
                    break;
                }
            }
            if (at >= 0) {
                messages.set(at, m);
            } else {
                messages.add(m);
            }
        }
    }

    private static void putDraft(Map<String, AttributeValue> item, WorkingDraft d) {
        item.put("draftConfig", Attributes.s(d.configJson()));
        item.put("draftSource", Attributes.s(d.source().name()));
        item.remove("draftConfigId");
        item.remove("draftVersion");
        item.remove("draftPreviewId");
        if (d.configId() != null) {
            item.put("draftConfigId", Attributes.s(d.configId()));
        }
        if (d.version() != null) {
            item.put("draftVersion", Attributes.n(d.version()));
        }
        if (d.previewId() != null) {
            item.put("draftPreviewId", Attributes.s(d.previewId()));
        }
    }

    /** The agent's memory, gzipped on the conversation's item (bounded by the agent's memory budget, so it fits). */
    private static Optional<String> memory(Map<String, AttributeValue> item) {
        AttributeValue memory = item.get("memory");
        return memory == null || memory.b() == null ? Optional.empty() : Optional.of(gunzip(memory.b().asByteArray()));
    }

    private static Optional<WorkingDraft> draft(Map<String, AttributeValue> item) {
        String config = Attributes.string(item, "draftConfig");
        if (config == null) {
            return Optional.empty();
        }
        return Optional.of(new WorkingDraft(config, DraftSource.valueOf(Attributes.string(item, "draftSource")),
                Attributes.string(item, "draftConfigId"), Attributes.number(item, "draftVersion"),
                Attributes.string(item, "draftPreviewId")));
    }

    private static ConversationSummary summary(Map<String, AttributeValue> item) {
        return new ConversationSummary(Attributes.string(item, "conversationId"), Attributes.string(item, "title"),
                Attributes.instant(item, "createdAt"), Attributes.instant(item, "updatedAt"),
                Attributes.string(item, "draftConfigId"));
    }

    private static ArrayNode toJson(List<StoredMessage> messages) {
        ArrayNode out = Json.MAPPER.createArrayNode();
        for (StoredMessage m : messages) {
            out.addObject().put("id", m.id()).put("role", m.role()).put("json", m.json());
        }
        return out;
    }

    private static List<StoredMessage> fromJson(JsonNode array) {
        List<StoredMessage> out = new ArrayList<>();
        array.forEach(m -> out.add(new StoredMessage(m.path("id").asText(), m.path("role").asText(), m.path("json").asText())));
        return out;
    }

    // ---- keys and cursors ----

    private static String owner(String ownerId) {
        return "OWNER#" + ownerId;
    }

    private static String metaKey(String conversationId) {
        return "CONV#" + conversationId;
    }

    private static String bodyPrefix(String conversationId, String token) {
        return "BODY#" + conversationId + "#" + token + "#";
    }

    /** Sorts by update time, then id; ISO instants of equal precision sort as text. */
    private static String listSortKey(Instant at, String conversationId) {
        return String.format("%020d#%s", at.toEpochMilli(), conversationId);
    }

    private static Map<String, AttributeValue> key(String ownerId, String sk) {
        return Map.of("pk", Attributes.s(owner(ownerId)), "sk", Attributes.s(sk));
    }

    private static String encodeCursor(Map<String, AttributeValue> last) {
        ObjectNode c = Json.object().put("sk", last.get("sk").s()).put("listSk", last.get("listSk").s());
        return Base64.getUrlEncoder().withoutPadding().encodeToString(Json.write(c).getBytes(StandardCharsets.UTF_8));
    }

    private static Map<String, AttributeValue> decodeCursor(String ownerId, String cursor) {
        try {
            JsonNode c = Json.parse(new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8));
            String sk = c.path("sk").asText("");
            String listSk = c.path("listSk").asText("");
            if (!sk.startsWith("CONV#") || listSk.isEmpty()) {
                throw new InvalidCursorException();
            }
            Map<String, AttributeValue> key = new LinkedHashMap<>();
            key.put("pk", Attributes.s(owner(ownerId)));
            key.put("sk", Attributes.s(sk));
            key.put("listPk", Attributes.s(owner(ownerId)));
            key.put("listSk", Attributes.s(listSk));
            return key;
        } catch (IllegalArgumentException | IOException e) {
            throw new InvalidCursorException();
        }
    }

    // ---- bytes ----

    private static byte[] gzip(byte[] bytes) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream z = new GZIPOutputStream(out)) {
            z.write(bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    private static String gunzip(byte[] bytes) {
        try (GZIPInputStream z = new GZIPInputStream(new ByteArrayInputStream(bytes))) {
            return new String(z.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<byte[]> split(byte[] bytes) {
        List<byte[]> parts = new ArrayList<>();
        for (int from = 0; from < bytes.length; from += PART_BYTES) {
            parts.add(java.util.Arrays.copyOfRange(bytes, from, Math.min(bytes.length, from + PART_BYTES)));
        }
        if (parts.isEmpty()) {
            parts.add(new byte[0]);
        }
        return parts;
    }
}
