package dev.tablewright.dynamodb;

import dev.tablewright.configstore.Page;
import dev.tablewright.conversation.ConversationBusyException;
import dev.tablewright.conversation.ConversationStore;
import dev.tablewright.conversation.ConversationSummary;
import dev.tablewright.conversation.ConversationTurn;
import dev.tablewright.conversation.DraftSource;
import dev.tablewright.conversation.StoredConversation;
import dev.tablewright.conversation.StoredMessage;
import dev.tablewright.conversation.WorkingDraft;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

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
    private static final int SAVE_ATTEMPTS = 8;
    /** A listing's cursor: the item and the index key it stopped at ({@link QueryCursor}). */
    private static final List<String> CURSOR = List.of("sk", "listSk");
    private static final java.security.SecureRandom RANDOM = new java.security.SecureRandom();

    private final DynamoDbClient dynamo;
    private final String table;
    private final Duration ttl;
    private final ConversationBody bodies;

    public DynamoConversationStore(DynamoDbClient dynamo, String table, Duration ttl) {
        this.dynamo = dynamo;
        this.table = table;
        this.ttl = ttl;
        this.bodies = new ConversationBody(dynamo, table);
    }

    @Override
    public Optional<StoredConversation> find(String ownerId, String conversationId) {
        try {
            for (int attempt = 1; ; attempt++) {
                Optional<Map<String, AttributeValue>> meta = meta(ownerId, conversationId);
                if (meta.isEmpty()) {
                    return Optional.empty();
                }
                Optional<List<StoredMessage>> messages = body(ownerId, conversationId, meta.get());
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
            request.exclusiveStartKey(QueryCursor.startKey(QueryCursor.read(cursor, CURSOR, Map.of("sk", sk -> sk.startsWith("CONV#"))),
                    Map.of("pk", Attributes.s(owner(ownerId)), "listPk", Attributes.s(owner(ownerId)))));
        }
        try {
            QueryResponse response = dynamo.query(request.build());
            List<ConversationSummary> items = response.items().stream().map(DynamoConversationStore::summary).toList();
            return new Page<>(items, QueryCursor.next(response, CURSOR));
        } catch (SdkException e) {
            throw DynamoDbFaults.translate(e);
        }
    }

    @Override
    public void saveTurn(String ownerId, String conversationId, ConversationTurn turn, Instant now) {
        try {
            for (int attempt = 1; ; attempt++) {
                Optional<Map<String, AttributeValue>> meta = meta(ownerId, conversationId);
                Optional<List<StoredMessage>> stored = meta.isPresent() ? body(ownerId, conversationId, meta.get()) : Optional.of(List.of());
                if (stored.isEmpty()) {
                    if (attempt == SAVE_ATTEMPTS) {
                        throw new ConversationBusyException(conversationId);
                    }
                    continue; // replaced between the reads
                }
                List<StoredMessage> messages = turn.mergedInto(stored.get());
                long revision = meta.map(m -> Attributes.number(m, "revision")).orElse(0L) + 1;
                String bodyToken = revision + "-" + Long.toHexString(RANDOM.nextLong());
                long expires = now.plus(ttl).getEpochSecond();
                int parts = bodies.write(owner(ownerId), conversationId, bodyToken, messages, expires);
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
                item.put("bodyParts", Attributes.n(parts));
                item.put("messageCount", Attributes.n(messages.size()));
                item.put("expiresAtEpoch", Attributes.n(expires));
                if (!item.containsKey("title") && turn.titleIfNew() != null && !turn.titleIfNew().isBlank()) {
                    item.put("title", Attributes.s(turn.titleIfNew()));
                }
                turn.draft().ifPresent(d -> putDraft(item, d));
                turn.memory().ifPresent(m -> item.put("memory", AttributeValue.fromB(SdkBytes.fromByteArray(Gzip.text(m)))));
                PutItemRequest.Builder put = PutItemRequest.builder().tableName(table).item(item)
                        .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD);
                if (meta.isPresent()) {
                    put.conditionExpression("revision = :r")
                            .expressionAttributeValues(Map.of(":r", Attributes.n(revision - 1)));
                } else {
                    put.conditionExpression("attribute_not_exists(pk)");
                }
                try {
                    dynamo.putItem(put.build());
                } catch (ConditionalCheckFailedException raced) {
                    if (raced.hasItem() && bodyToken.equals(Attributes.string(raced.item(), "bodyToken"))) {
                        // this very put, whose answer was lost after it committed (the SDK retried it): saved.
                        // Its fresh body token names it, so no other turn's put can look like it.
                        meta.ifPresent(m -> bodies.delete(owner(ownerId), conversationId, Attributes.string(m, "bodyToken"),
                                Attributes.number(m, "bodyParts").intValue()));
                        return;
                    }
                    bodies.delete(owner(ownerId), conversationId, bodyToken, parts);
                    if (attempt == SAVE_ATTEMPTS) {
                        throw new ConversationBusyException(conversationId);
                    }
                    continue;
                }
                meta.ifPresent(m -> bodies.delete(owner(ownerId), conversationId, Attributes.string(m, "bodyToken"),
                        Attributes.number(m, "bodyParts").intValue()));
                return;
            }
        } catch (SdkException e) {
            throw DynamoDbFaults.translate(e);
        }
    }

    @Override
    public boolean rename(String ownerId, String conversationId, String title, Instant now) {
        return ConditionalWrite.made(() -> dynamo.updateItem(b -> b.tableName(table).key(key(ownerId, metaKey(conversationId)))
                .conditionExpression("attribute_exists(pk)")
                .updateExpression("SET title = :t, updatedAt = :u, listSk = :l")
                .expressionAttributeValues(Map.of(":t", Attributes.s(title), ":u", Attributes.s(now.toString()),
                        ":l", Attributes.s(listSortKey(now, conversationId))))));
    }

    /**
     * Deletes the conversation; true when it existed. Read first: a delete whose answer was lost is retried by the
     * SDK and then finds nothing, which alone would read as "never existed".
     */
    @Override
    public boolean delete(String ownerId, String conversationId) {
        try {
            boolean existed = dynamo.getItem(b -> b.tableName(table).key(key(ownerId, metaKey(conversationId)))
                    .consistentRead(true).projectionExpression("pk")).hasItem();
            if (existed) {
                dynamo.deleteItem(DeleteItemRequest.builder().tableName(table).key(key(ownerId, metaKey(conversationId))).build());
            }
            bodies.deleteAll(owner(ownerId), conversationId); // every revision's parts, including any a crashed save left behind
            return existed;
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
    private Optional<List<StoredMessage>> body(String ownerId, String conversationId, Map<String, AttributeValue> meta) {
        return bodies.read(owner(ownerId), conversationId, Attributes.string(meta, "bodyToken"),
                Attributes.number(meta, "bodyParts").intValue());
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
        return memory == null || memory.b() == null ? Optional.empty() : Optional.of(Gzip.read(memory.b().asByteArray()));
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

    // ---- keys and cursors ----

    private static String owner(String ownerId) {
        return "OWNER#" + ownerId;
    }

    private static String metaKey(String conversationId) {
        return "CONV#" + conversationId;
    }

    /** Sorts by update time, then id; ISO instants of equal precision sort as text. */
    private static String listSortKey(Instant at, String conversationId) {
        return String.format("%020d#%s", at.toEpochMilli(), conversationId);
    }

    private static Map<String, AttributeValue> key(String ownerId, String sk) {
        return Map.of("pk", Attributes.s(owner(ownerId)), "sk", Attributes.s(sk));
    }
}
