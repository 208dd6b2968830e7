package dev.tablewright.dynamodb;

import dev.tablewright.configstore.InvalidConfigException;
import dev.tablewright.preview.PendingPreview;
import dev.tablewright.preview.PreviewNotFoundException;
import dev.tablewright.preview.PreviewNotPendingException;
import dev.tablewright.preview.PreviewStatus;
import dev.tablewright.preview.PreviewStore;
import dev.tablewright.validation.ValidationError;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.Update;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** {@link PreviewStore} on DynamoDB ({@code PreviewsTable}, env {@code PREVIEWS_TABLE}); layout in {@link PreviewItems}. */
public final class DynamoPreviewStore implements PreviewStore {

    private final DynamoDbClient dynamo;
    private final String table;

    /** The previews table's name, for a transaction another adapter writes a preview's transition in. */
    String table() {
        return table;
    }

    public DynamoPreviewStore(DynamoDbClient dynamo, String table) {
        this.dynamo = dynamo;
        this.table = table;
    }

    /** A DynamoDB item holds at most 400 KB; the preview's config and summary must fit with room to spare. */
    static final int MAX_ITEM_BYTES = 380_000;

    /**
     * Saves the preview once: a save repeated for the same preview (the same id and config: the SDK's retry of a put
     * whose answer was lost, or the same tool call run again, whose preview id comes from the call) answers the
     * preview as first stored; another preview under a taken id is refused.
     *
     * @throws InvalidConfigException the config and summary together are too large to store as one preview
     */
    @Override
    public PendingPreview save(PendingPreview preview) {
        Map<String, AttributeValue> item = PreviewItems.toItem(preview);
        long size = item.values().stream().mapToLong(v -> v.s() != null ? v.s().getBytes(StandardCharsets.UTF_8).length : 16).sum();
        if (size > MAX_ITEM_BYTES) {
            throw new InvalidConfigException(List.of(new ValidationError("config",
                    "the preview (config, diff and sample) is larger than " + MAX_ITEM_BYTES / 1000 + " KB; preview a smaller change")));
        }
        String writeId = PreviewItems.saveId(item);
        item.put(ConditionalWrite.WRITE_ID, Attributes.s(writeId));
        try {
            dynamo.putItem(PutItemRequest.builder()
                    .tableName(table)
                    .item(item)
                    .conditionExpression("attribute_not_exists(pk)") // ids are random or the call's: a clash is never an overwrite
                    .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
                    .build());
            return preview;
        } catch (ConditionalCheckFailedException e) {
            if (ConditionalWrite.isOwn(writeId, e.hasItem() ? e.item() : null)) {
                return PreviewItems.fromItem(e.item());
            }
            throw new IllegalStateException("preview id '" + preview.previewId() + "' is already taken", e);
        } catch (SdkException e) {
            throw DynamoDbFaults.translate(e);
        }
    }

    @Override
    public Optional<PendingPreview> find(String ownerId, String previewId) {
        try {
            Map<String, AttributeValue> item = dynamo.getItem(GetItemRequest.builder()
                    .tableName(table).key(PreviewItems.key(ownerId, previewId)).consistentRead(true).build()).item();
            return item == null || item.isEmpty() ? Optional.empty() : Optional.of(PreviewItems.fromItem(item));
        } catch (SdkException e) {
            throw DynamoDbFaults.translate(e);
        }
    }

    @Override
    public PendingPreview reject(String ownerId, String previewId, Instant now) {
        String writeId = ConditionalWrite.newId();
        Update update = PreviewItems.transition(table, ownerId, previewId, PreviewStatus.REJECTED, now,
                Map.of(ConditionalWrite.WRITE_ID, Attributes.s(writeId)));
        try {
            Map<String, AttributeValue> rejected = dynamo.updateItem(UpdateItemRequest.builder()
                    .tableName(update.tableName())
                    .key(update.key())
                    .updateExpression(update.updateExpression())
                    .conditionExpression(update.conditionExpression())
                    .expressionAttributeNames(update.expressionAttributeNames())
                    .expressionAttributeValues(update.expressionAttributeValues())
                    .returnValues(ReturnValue.ALL_NEW)
                    .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
                    .build()).attributes();
            return PreviewItems.fromItem(rejected);
        } catch (ConditionalCheckFailedException e) {
            if (ConditionalWrite.isOwn(writeId, e.hasItem() ? e.item() : null)) {
                return PreviewItems.fromItem(e.item()); // this rejection, whose answer was lost: rejected as asked
            }
            throw whyNotPending(ownerId, previewId, now);
        } catch (SdkException e) {
            throw DynamoDbFaults.translate(e);
        }
    }

    @Override
    public void rejectPendingOf(String ownerId, String conversationId, Instant now) {
        Map<String, AttributeValue> start = null;
        do {
            Map<String, AttributeValue> exclusiveStart = start;
            software.amazon.awssdk.services.dynamodb.model.QueryResponse page;
            try {
                page = dynamo.query(b -> b.tableName(table).consistentRead(true)
                        .keyConditionExpression("pk = :pk AND begins_with(sk, :p)")
                        .expressionAttributeValues(Map.of(":pk", PreviewItems.key(ownerId, "x").get("pk"),
                                ":p", AttributeValue.fromS("PREVIEW#")))
                        .exclusiveStartKey(exclusiveStart));
            } catch (SdkException e) {
                throw DynamoDbFaults.translate(e);
            }
            for (Map<String, AttributeValue> item : page.items()) {
                PendingPreview preview = PreviewItems.fromItem(item);
                if (conversationId.equals(preview.conversationId()) && preview.statusAt(now) == PreviewStatus.PENDING) {
                    try {
                        reject(ownerId, preview.previewId(), now);
                    } catch (dev.tablewright.preview.PreviewNotPendingException raced) {
                        // accepted or rejected meanwhile: no longer pending either way
                    }
                }
            }
            start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
        } while (start != null);
    }

    /** After a failed pending-only condition: the preview is gone (or never was), or it is no longer pending. */
    RuntimeException whyNotPending(String ownerId, String previewId, Instant now) {
        return find(ownerId, previewId)
                .<RuntimeException>map(p -> new PreviewNotPendingException(previewId, p.statusAt(now)))
                .orElseGet(() -> new PreviewNotFoundException(previewId));
    }
}
