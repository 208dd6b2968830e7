package dev.tablewright.dynamodb;

import dev.tablewright.lambda.Env;
import dev.tablewright.preview.PendingPreview;
import dev.tablewright.preview.PreviewNotFoundException;
import dev.tablewright.preview.PreviewNotPendingException;
import dev.tablewright.preview.PreviewStatus;
import dev.tablewright.preview.PreviewStore;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.Update;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/** {@link PreviewStore} on DynamoDB ({@code PreviewsTable}, env {@code PREVIEWS_TABLE}); layout in {@link PreviewItems}. */
public final class DynamoPreviewStore implements PreviewStore {

    private final DynamoDbClient dynamo;
    private final String table;

    /** The table name from {@code PREVIEWS_TABLE} (template.yaml sets it). */
    public static DynamoPreviewStore fromEnvironment(DynamoDbClient dynamo) {
        return new DynamoPreviewStore(dynamo, Env.get("PREVIEWS_TABLE", "PreviewsTable"));
    }

    public DynamoPreviewStore(DynamoDbClient dynamo, String table) {
        this.dynamo = dynamo;
        this.table = table;
    }

    @Override
    public void save(PendingPreview preview) {
        try {
            dynamo.putItem(PutItemRequest.builder()
                    .tableName(table)
                    .item(PreviewItems.toItem(preview))
                    .conditionExpression("attribute_not_exists(pk)") // ids are random: a clash is a bug, never an overwrite
                    .build());
        } catch (ConditionalCheckFailedException e) {
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
        Update update = PreviewItems.transition(table, ownerId, previewId, PreviewStatus.REJECTED, now, Map.of());
        try {
            dynamo.updateItem(UpdateItemRequest.builder()
                    .tableName(update.tableName())
                    .key(update.key())
                    .updateExpression(update.updateExpression())
                    .conditionExpression(update.conditionExpression())
                    .expressionAttributeNames(update.expressionAttributeNames())
                    .expressionAttributeValues(update.expressionAttributeValues())
                    .build());
        } catch (ConditionalCheckFailedException e) {
            throw whyNotPending(ownerId, previewId, now);
        } catch (SdkException e) {
            throw DynamoDbFaults.translate(e);
        }
        return find(ownerId, previewId).orElseThrow(() -> new PreviewNotFoundException(previewId));
    }

    /** After a failed pending-only condition: the preview is gone (or never was), or it is no longer pending. */
    RuntimeException whyNotPending(String ownerId, String previewId, Instant now) {
        return find(ownerId, previewId)
                .<RuntimeException>map(p -> new PreviewNotPendingException(previewId, p.statusAt(now)))
                .orElseGet(() -> new PreviewNotFoundException(previewId));
    }
}
