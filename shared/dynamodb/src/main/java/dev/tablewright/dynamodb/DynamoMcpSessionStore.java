package dev.tablewright.dynamodb;

import dev.tablewright.json.Json;
import dev.tablewright.mcpsession.McpSession;
import dev.tablewright.mcpsession.McpSessionStore;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * {@link McpSessionStore} on DynamoDB ({@code McpSessionsTable}, env {@code MCP_SESSIONS_TABLE}). One item per
 * session: {@code pk} {@code session#<id>}, the owner, the protocol revision, the client's capabilities (JSON text),
 * its name, {@code createdAt} (ISO) and {@code expiresAtEpoch} (seconds, the table's TTL attribute; DynamoDB removes
 * expired items lazily, so {@link McpSession#usableBy} checks the expiry too).
 */
public final class DynamoMcpSessionStore implements McpSessionStore {

    private final DynamoDbClient dynamo;
    private final String table;

    public DynamoMcpSessionStore(DynamoDbClient dynamo, String table) {
        this.dynamo = dynamo;
        this.table = table;
    }

    @Override
    public void create(McpSession session) {
        Map<String, AttributeValue> item = new LinkedHashMap<>(key(session.sessionId()));
        item.put("ownerId", Attributes.s(session.ownerId()));
        item.put("protocolVersion", Attributes.s(session.protocolVersion()));
        item.put("clientCapabilities", Attributes.s(Json.write(session.clientCapabilities())));
        if (session.clientName() != null) {
            item.put("clientName", Attributes.s(session.clientName()));
        }
        item.put("createdAt", Attributes.s(session.createdAt().toString()));
        item.put("expiresAtEpoch", Attributes.n(session.expiresAt().getEpochSecond()));
        String writeId = ConditionalWrite.newId();
        item.put(ConditionalWrite.WRITE_ID, Attributes.s(writeId));
        if (!ConditionalWrite.madeOnce(writeId, () -> dynamo.putItem(PutItemRequest.builder().tableName(table).item(item)
                .conditionExpression("attribute_not_exists(pk)")
                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD).build()))) {
            throw new IllegalStateException("session id is already taken");
        }
    }

    @Override
    public Optional<McpSession> find(String sessionId) {
        Map<String, AttributeValue> item;
        try {
            item = dynamo.getItem(GetItemRequest.builder().tableName(table).key(key(sessionId)).consistentRead(true).build()).item();
        } catch (SdkException e) {
            throw DynamoDbFaults.translate(e);
        }
        if (item == null || item.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(new McpSession(sessionId, Attributes.string(item, "ownerId"), Attributes.string(item, "protocolVersion"),
                    Json.parse(Attributes.string(item, "clientCapabilities")), Attributes.string(item, "clientName"),
                    Attributes.instant(item, "createdAt"),
                    java.time.Instant.ofEpochSecond(Attributes.number(item, "expiresAtEpoch"))));
        } catch (IOException | RuntimeException e) {
            // an item this adapter did not write: as good as no session (the client initializes again)
            return Optional.empty();
        }
    }

    /**
     * Deletes the owner's session; true when it was there. Read first: a delete whose answer was lost is retried by
     * the SDK and then finds nothing, which alone would read as "no such session".
     */
    @Override
    public boolean delete(String ownerId, String sessionId) {
        Map<String, AttributeValue> item;
        try {
            item = dynamo.getItem(GetItemRequest.builder().tableName(table).key(key(sessionId)).consistentRead(true)
                    .projectionExpression("ownerId").build()).item();
        } catch (SdkException e) {
            throw DynamoDbFaults.translate(e);
        }
        if (item == null || !ownerId.equals(Attributes.string(item, "ownerId"))) {
            return false;
        }
        // the condition still keeps another owner out; failing it here means the session is gone: deleted as asked
        ConditionalWrite.made(() -> dynamo.deleteItem(DeleteItemRequest.builder().tableName(table).key(key(sessionId))
                .conditionExpression("ownerId = :owner")
                .expressionAttributeValues(Map.of(":owner", Attributes.s(ownerId))).build()));
        return true;
    }

    private static Map<String, AttributeValue> key(String sessionId) {
        return Map.of("pk", Attributes.s("session#" + sessionId));
    }
}
