package dev.tablewright.dynamodb;

import dev.tablewright.userinput.InputRequest;
import dev.tablewright.userinput.InputRequestConflictException;
import dev.tablewright.userinput.InputRequestNotFoundException;
import dev.tablewright.userinput.InputRequestStore;
import dev.tablewright.userinput.RequestStatus;
import dev.tablewright.userinput.SavedValue;
import dev.tablewright.store.StoreUnavailableException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.model.Update;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static dev.tablewright.dynamodb.UserInputItems.CONVERSATION_SK;
import static dev.tablewright.dynamodb.UserInputItems.REQUEST_PREFIX;
import static dev.tablewright.dynamodb.UserInputItems.VALUE_PREFIX;
import static dev.tablewright.dynamodb.UserInputItems.conversationPk;
import static dev.tablewright.dynamodb.UserInputItems.epoch;
import static dev.tablewright.dynamodb.UserInputItems.key;
import static dev.tablewright.dynamodb.UserInputItems.requestKey;
import static dev.tablewright.dynamodb.UserInputItems.s;
import static dev.tablewright.dynamodb.UserInputItems.userPk;

/**
 * {@link InputRequestStore} on {@code UserInputTable} (layout: {@link UserInputItems}). State changes are conditional
 * writes (a request leaves {@code pending} once); completing a request and saving its values is one
 * {@code TransactWriteItems}, so either all of it is stored or none.
 */
public final class DynamoDbInputRequestStore implements InputRequestStore {

    /** Transactions that collide with another in flight on the same item are retried this often, then 503. */
    private static final int TRANSACTION_CONFLICT_ATTEMPTS = 5;

    private final DynamoDbClient client;
    private final String table;
    private final Duration valuesTtl;

    /** @param valuesTtl how long the conversation (and a request once answered) lives after its last write */
    public DynamoDbInputRequestStore(DynamoDbClient client, String table, Duration valuesTtl) {
        this.client = client;
        this.table = table;
        this.valuesTtl = valuesTtl;
    }

    @Override
    public void create(InputRequest request, Instant conversationExpiresAt) {
        Map<String, AttributeValue> values = new HashMap<>();
        values.put(":pending", s(RequestStatus.PENDING.wireName()));
        values.put(":now", epoch(request.createdAt()));
        TransactWriteItem put = TransactWriteItem.builder().put(p -> p.tableName(table)
                .item(UserInputItems.requestItem(request))
                // a new tool call id, or one whose earlier request expired unanswered
                .conditionExpression("attribute_not_exists(pk) OR (#status = :pending AND expiresAt <= :now)")
                .expressionAttributeNames(Map.of("#status", "status"))
                .expressionAttributeValues(values)).build();
        TransactWriteItem conversation = conversationUpdate(request.ownerId(), request.conversationId(),
                request.createdAt(), conversationExpiresAt);
        try {
            transact(List.of(put, conversation), request);
        } catch (TransactionCanceledException e) {
            throw conflictOrUnavailable(e, request, request.createdAt());
        }
    }

    @Override
    public boolean conversationExists(String ownerId, String conversationId, Instant now) {
        var item = call(() -> client.getItem(b -> b.tableName(table).consistentRead(true)
                .key(key(conversationPk(ownerId, conversationId), CONVERSATION_SK))
                .projectionExpression("expiresAt")).item());
        return item != null && !item.isEmpty()
                && Long.parseLong(item.get("expiresAt").n()) > now.getEpochSecond();
    }

    @Override
    public Optional<InputRequest> find(String ownerId, String conversationId, String toolCallId) {
        var item = call(() -> client.getItem(b -> b.tableName(table).consistentRead(true)
                .key(requestKey(ownerId, conversationId, toolCallId))).item());
        return item == null || item.isEmpty() ? Optional.empty() : Optional.of(UserInputItems.request(item));
    }

    @Override
    public List<InputRequest> list(String ownerId, String conversationId) {
        List<InputRequest> out = new ArrayList<>();
        Map<String, AttributeValue> start = null;
        do {
            Map<String, AttributeValue> exclusiveStart = start;
            QueryResponse page = call(() -> client.query(b -> b.tableName(table).consistentRead(true)
                    .keyConditionExpression("pk = :pk AND begins_with(sk, :prefix)")
                    .expressionAttributeValues(Map.of(":pk", s(conversationPk(ownerId, conversationId)), ":prefix", s(REQUEST_PREFIX)))
                    .exclusiveStartKey(exclusiveStart)));
            page.items().forEach(item -> out.add(UserInputItems.request(item)));
            start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
        } while (start != null);
        out.sort(java.util.Comparator.comparing(InputRequest::createdAt));
        return out;
    }

    @Override
    public void deleteConversation(String ownerId, String conversationId) {
        String pk = conversationPk(ownerId, conversationId);
        Map<String, AttributeValue> start = null;
        do {
            Map<String, AttributeValue> exclusiveStart = start;
            QueryResponse page = call(() -> client.query(b -> b.tableName(table).consistentRead(true)
                    .keyConditionExpression("pk = :pk").expressionAttributeValues(Map.of(":pk", s(pk)))
                    .projectionExpression("pk, sk").exclusiveStartKey(exclusiveStart)));
            page.items().forEach(key -> call(() -> client.deleteItem(b -> b.tableName(table).key(key))));
            start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
        } while (start != null);
    }

    @Override
    public void complete(InputRequest request, Map<String, String> submitted, List<SavedValue> toSave, Instant now) {
        Instant keepUntil = now.plus(valuesTtl);
        Map<String, AttributeValue> valueMap = new HashMap<>();
        submitted.forEach((name, value) -> valueMap.put(name, s(value)));
        Map<String, AttributeValue> attrs = new HashMap<>();
        attrs.put(":completed", s(RequestStatus.COMPLETED.wireName()));
        attrs.put(":pending", s(RequestStatus.PENDING.wireName()));
        attrs.put(":values", AttributeValue.fromM(valueMap));
        attrs.put(":completedAt", s(now.toString()));
        attrs.put(":keep", epoch(keepUntil));
        attrs.put(":now", epoch(now));
        List<TransactWriteItem> writes = new ArrayList<>();
        writes.add(TransactWriteItem.builder().update(Update.builder().tableName(table)
                .key(requestKey(request.ownerId(), request.conversationId(), request.toolCallId()))
                .updateExpression("SET #status = :completed, #values = :values, completedAt = :completedAt, expiresAt = :keep")
                .conditionExpression("#status = :pending AND expiresAt > :now")
                .expressionAttributeNames(Map.of("#status", "status", "#values", "values"))
                .expressionAttributeValues(attrs).build()).build());
        writes.add(conversationUpdate(request.ownerId(), request.conversationId(), now, keepUntil));
        for (SavedValue v : toSave) {
            writes.add(valueWrite(request.ownerId(), request.conversationId(), v));
        }
        try {
            transact(writes, request);
        } catch (TransactionCanceledException e) {
            throw conflictOrUnavailable(e, request, now);
        }
    }

    @Override
    public void cancel(InputRequest request, Instant now) {
        String writeId = ConditionalWrite.newId();
        Map<String, AttributeValue> attrs = new HashMap<>();
        attrs.put(":cancelled", s(RequestStatus.CANCELLED.wireName()));
        attrs.put(":pending", s(RequestStatus.PENDING.wireName()));
        attrs.put(":completedAt", s(now.toString()));
        attrs.put(":keep", epoch(now.plus(valuesTtl)));
        attrs.put(":now", epoch(now));
        attrs.put(":write", s(writeId));
        if (!ConditionalWrite.madeOnce(writeId, () -> client.updateItem(b -> b.tableName(table)
                .key(requestKey(request.ownerId(), request.conversationId(), request.toolCallId()))
                .updateExpression("SET #status = :cancelled, completedAt = :completedAt, expiresAt = :keep, #write = :write")
                .conditionExpression("#status = :pending AND expiresAt > :now")
                .expressionAttributeNames(Map.of("#status", "status", "#write", ConditionalWrite.WRITE_ID))
                .expressionAttributeValues(attrs)
                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)))) {
            throw currentConflict(request, now);
        }
    }

    // ---- helpers ----

    /** Opens the conversation or extends its life; records its owner. */
    private TransactWriteItem conversationUpdate(String ownerId, String conversationId, Instant now, Instant expiresAt) {
        return TransactWriteItem.builder().update(Update.builder().tableName(table)
                .key(key(conversationPk(ownerId, conversationId), CONVERSATION_SK))
                .updateExpression("SET ownerId = :owner, conversationId = :conversation, kind = :kind, "
                        + "createdAt = if_not_exists(createdAt, :now), expiresAt = :expires")
                .expressionAttributeValues(Map.of(":owner", s(ownerId), ":conversation", s(conversationId),
                        ":kind", s("conversation"), ":now", s(now.toString()), ":expires", epoch(expiresAt)))
                .build()).build();
    }

    /** Upserts one saved value; {@code writes} counts how often it was written (the race test reads it). */
    private TransactWriteItem valueWrite(String ownerId, String conversationId, SavedValue v) {
        boolean user = v.scope() == dev.tablewright.toolcontract.ValueScope.USER;
        Map<String, AttributeValue> attrs = new HashMap<>();
        attrs.put(":owner", s(ownerId));
        attrs.put(":name", s(v.name()));
        attrs.put(":value", s(v.value()));
        attrs.put(":secret", AttributeValue.fromBool(v.secret()));
        attrs.put(":scope", s(v.scope().wireName()));
        attrs.put(":tool", s(v.toolName()));
        attrs.put(":call", s(v.toolCallId()));
        attrs.put(":savedAt", s(v.savedAt().toString()));
        attrs.put(":kind", s("value"));
        attrs.put(":one", AttributeValue.fromN("1"));
        String set = "SET ownerId = :owner, #name = :name, #value = :value, secret = :secret, #scope = :scope, "
                + "toolName = :tool, toolCallId = :call, savedAt = :savedAt, kind = :kind";
        if (v.expiresAt() != null) {
            attrs.put(":expires", epoch(v.expiresAt()));
            set += ", expiresAt = :expires";
        }
        if (!user) {
            attrs.put(":conversation", s(conversationId));
            set += ", conversationId = :conversation";
        }
        String pk = user ? userPk(ownerId) : conversationPk(ownerId, conversationId);
        return TransactWriteItem.builder().update(Update.builder().tableName(table)
                .key(key(pk, VALUE_PREFIX + v.name()))
                .updateExpression(set + (user ? " REMOVE expiresAt" : "") + " ADD writes :one")
                .expressionAttributeNames(Map.of("#name", "name", "#value", "value", "#scope", "scope"))
                .expressionAttributeValues(attrs).build()).build();
    }

    /**
     * Runs a transaction. A cancellation because another transaction held one of the items
     * ({@code TransactionConflict}) is retried while the request is still pending: the other writer may have
     * failed. Condition failures are left to the caller.
     */
    private void transact(List<TransactWriteItem> writes, InputRequest request) {
        for (int attempt = 1; ; attempt++) {
            try {
                client.transactWriteItems(b -> b.transactItems(writes));
                return;
            } catch (TransactionCanceledException e) {
                if (!onlyTransactionConflicts(e) || attempt >= TRANSACTION_CONFLICT_ATTEMPTS) {
                    throw e;
                }
                Optional<InputRequest> current = find(request.ownerId(), request.conversationId(), request.toolCallId());
                if (current.isPresent() && current.get().status() != RequestStatus.PENDING
                        && request.status() == RequestStatus.PENDING && current.get().createdAt().equals(request.createdAt())) {
                    throw new InputRequestConflictException(current.get().status());
                }
                sleep(10L * attempt);
            } catch (SdkException e) {
                throw DynamoDbFaults.translate(e);
            }
        }
    }

    private static boolean onlyTransactionConflicts(TransactionCanceledException e) {
        if (!e.hasCancellationReasons()) {
            return false;
        }
        boolean any = false;
        for (CancellationReason r : e.cancellationReasons()) {
            if ("TransactionConflict".equals(r.code())) {
                any = true;
            } else if (r.code() != null && !"None".equals(r.code())) {
                return false;
            }
        }
        return any;
    }

    private RuntimeException conflictOrUnavailable(TransactionCanceledException e, InputRequest request, Instant now) {
        if (DynamoDbFaults.isUnavailable(e) || onlyTransactionConflicts(e)) {
            return new StoreUnavailableException("DynamoDB transaction could not complete", 1, e);
        }
        if (e.hasCancellationReasons() && !e.cancellationReasons().isEmpty()
                && "ConditionalCheckFailed".equals(e.cancellationReasons().getFirst().code())) {
            return currentConflict(request, now);
        }
        return e;
    }

    /** The conflict as the request stands now (it may also have vanished: then it is not found). */
    private RuntimeException currentConflict(InputRequest request, Instant now) {
        return find(request.ownerId(), request.conversationId(), request.toolCallId())
                .<RuntimeException>map(r -> new InputRequestConflictException(r.statusAt(now)))
                .orElseGet(() -> new InputRequestNotFoundException("no input request " + request.toolCallId()));
    }

    private static <T> T call(java.util.function.Supplier<T> call) {
        try {
            return call.get();
        } catch (SdkException e) {
            throw DynamoDbFaults.translate(e);
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StoreUnavailableException("interrupted", 1, e);
        }
    }
}
