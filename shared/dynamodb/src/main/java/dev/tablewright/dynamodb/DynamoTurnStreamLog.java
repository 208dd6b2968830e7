package dev.tablewright.dynamodb;

import dev.tablewright.conversation.TurnStreamLog;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@link TurnStreamLog} on DynamoDB ({@code TurnStreamsTable}, env {@code TURN_STREAMS_TABLE}).
 *
 * <p>Layout, one partition per owner and conversation ({@code pk = OWNER#<ownerId>#CONV#<conversationId>}):
 * <ul>
 *   <li>{@code sk = ACTIVE}: the marker: {@code streamId}, {@code startedAt}, {@code stopRequested};</li>
 *   <li>{@code sk = STREAM#<streamId>#<nnnnnn>}: batch {@code n}: {@code events} (the encoded events, in order),
 *       {@code eventCount}, {@code last}.</li>
 * </ul>
 * Every item carries {@code expiresAtEpoch} (the table's TTL): a log outlives its turn by the TTL at most.
 */
public final class DynamoTurnStreamLog implements TurnStreamLog {

    private static final String ACTIVE = "ACTIVE";

    private final DynamoDbClient dynamo;
    private final String table;
    private final Duration ttl;

    public DynamoTurnStreamLog(DynamoDbClient dynamo, String table, Duration ttl) {
        this.dynamo = dynamo;
        this.table = table;
        this.ttl = ttl;
    }

    @Override
    public void open(String ownerId, String conversationId, String streamId, Instant now) {
        try {
            dynamo.putItem(b -> b.tableName(table).item(Map.of(
                    "pk", Attributes.s(partition(ownerId, conversationId)),
                    "sk", Attributes.s(ACTIVE),
                    "streamId", Attributes.s(streamId),
                    "startedAt", Attributes.s(now.toString()),
                    "stopRequested", AttributeValue.fromBool(false),
                    "expiresAtEpoch", Attributes.n(now.plus(ttl).getEpochSecond()))));
        } catch (SdkException e) {
            throw DynamoDbFaults.translate(e);
        }
    }

    @Override
    public void append(String ownerId, String conversationId, String streamId, Batch batch, Instant now) {
        try {
            dynamo.putItem(b -> b.tableName(table).item(Map.of(
                    "pk", Attributes.s(partition(ownerId, conversationId)),
                    "sk", Attributes.s(batchKey(streamId, batch.number())),
                    "events", Attributes.s(batch.events()),
                    "eventCount", Attributes.n(batch.eventCount()),
                    "last", AttributeValue.fromBool(batch.last()),
                    "expiresAtEpoch", Attributes.n(now.plus(ttl).getEpochSecond()))));
        } catch (SdkException e) {
            throw DynamoDbFaults.translate(e);
        }
    }

    @Override
    public void close(String ownerId, String conversationId, String streamId) {
        // not made when a later turn's marker (or none) stands: it is left as it is
        ConditionalWrite.made(() -> dynamo.deleteItem(b -> b.tableName(table).key(key(ownerId, conversationId, ACTIVE))
                .conditionExpression("streamId = :s")
                .expressionAttributeValues(Map.of(":s", Attributes.s(streamId)))));
    }

    @Override
    public Optional<ActiveStream> active(String ownerId, String conversationId) {
        try {
            Map<String, AttributeValue> item = dynamo.getItem(b -> b.tableName(table)
                    .key(key(ownerId, conversationId, ACTIVE)).consistentRead(true)).item();
            if (item == null || item.isEmpty()) {
                return Optional.empty();
            }
            AttributeValue stop = item.get("stopRequested");
            return Optional.of(new ActiveStream(Attributes.string(item, "streamId"), Attributes.instant(item, "startedAt"),
                    stop != null && Boolean.TRUE.equals(stop.bool())));
        } catch (SdkException e) {
            throw DynamoDbFaults.translate(e);
        }
    }

    @Override
    public List<Batch> read(String ownerId, String conversationId, String streamId, int fromBatch) {
        List<Batch> out = new ArrayList<>();
        Map<String, AttributeValue> start = null;
        try {
            do {
                QueryRequest.Builder query = QueryRequest.builder().tableName(table).consistentRead(true)
                        .keyConditionExpression("pk = :p AND sk BETWEEN :from AND :to")
                        .expressionAttributeValues(Map.of(
                                ":p", Attributes.s(partition(ownerId, conversationId)),
                                ":from", Attributes.s(batchKey(streamId, fromBatch)),
                                ":to", Attributes.s(batchKey(streamId, 999_999))));
                if (start != null) {
                    query.exclusiveStartKey(start);
                }
                QueryResponse response = dynamo.query(query.build());
                for (Map<String, AttributeValue> item : response.items()) {
                    String sk = Attributes.string(item, "sk");
                    AttributeValue last = item.get("last");
                    out.add(new Batch(Integer.parseInt(sk.substring(sk.lastIndexOf('#') + 1)), Attributes.string(item, "events"),
                            Attributes.number(item, "eventCount").intValue(), last != null && Boolean.TRUE.equals(last.bool())));
                }
                start = response.hasLastEvaluatedKey() && !response.lastEvaluatedKey().isEmpty() ? response.lastEvaluatedKey() : null;
            } while (start != null);
            return out;
        } catch (SdkException e) {
            throw DynamoDbFaults.translate(e);
        }
    }

    @Override
    public boolean requestStop(String ownerId, String conversationId) {
        return ConditionalWrite.made(() -> dynamo.updateItem(b -> b.tableName(table).key(key(ownerId, conversationId, ACTIVE))
                .conditionExpression("attribute_exists(pk)")
                .updateExpression("SET stopRequested = :t")
                .expressionAttributeValues(Map.of(":t", AttributeValue.fromBool(true)))));
    }

    private static String partition(String ownerId, String conversationId) {
        return "OWNER#" + ownerId + "#CONV#" + conversationId;
    }

    private static String batchKey(String streamId, int number) {
        return "STREAM#" + streamId + "#" + String.format("%06d", number);
    }

    private static Map<String, AttributeValue> key(String ownerId, String conversationId, String sk) {
        Map<String, AttributeValue> key = new HashMap<>();
        key.put("pk", Attributes.s(partition(ownerId, conversationId)));
        key.put("sk", Attributes.s(sk));
        return key;
    }
}
