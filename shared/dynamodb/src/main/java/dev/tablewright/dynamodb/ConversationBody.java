package dev.tablewright.dynamodb;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.tablewright.conversation.StoredMessage;
import dev.tablewright.json.Json;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A conversation's messages in {@code ConversationsTable}: one gzipped JSON array, split into parts that each fit an
 * item ({@code sk = BODY#<conversationId>#<token>#<n>}). A body is written whole under a fresh token and read whole by
 * the token and part count the conversation's item points at; which body is current is the store's business
 * ({@link DynamoConversationStore}).
 */
final class ConversationBody {

    /** Gzipped bytes per part: well under the 400 KB item limit. */
    static final int PART_BYTES = 300_000;

    private final DynamoDbClient dynamo;
    private final String table;

    ConversationBody(DynamoDbClient dynamo, String table) {
        this.dynamo = dynamo;
        this.table = table;
    }

    /** Writes {@code messages} under {@code token}; returns how many parts it took. */
    int write(String partition, String conversationId, String token, List<StoredMessage> messages, long expiresAtEpoch) {
        List<byte[]> parts = split(Gzip.text(Json.write(toJson(messages))));
        for (int i = 0; i < parts.size(); i++) {
            dynamo.putItem(PutItemRequest.builder().tableName(table).item(Map.of(
                    "pk", Attributes.s(partition),
                    "sk", Attributes.s(prefix(conversationId, token) + i),
                    "body", AttributeValue.fromB(SdkBytes.fromByteArray(parts.get(i))),
                    "expiresAtEpoch", Attributes.n(expiresAtEpoch))).build());
        }
        return parts.size();
    }

    /** The messages of the body under {@code token}; empty if a part is missing (a newer turn replaced it since). */
    Optional<List<StoredMessage>> read(String partition, String conversationId, String token, int parts) {
        ByteArrayOutputStream gzipped = new ByteArrayOutputStream();
        for (int i = 0; i < parts; i++) {
            String sk = prefix(conversationId, token) + i;
            Map<String, AttributeValue> part = dynamo.getItem(b -> b.tableName(table).consistentRead(true)
                    .key(key(partition, sk))).item();
            if (part == null || part.isEmpty()) {
                return Optional.empty();
            }
            gzipped.writeBytes(part.get("body").b().asByteArray());
        }
        try {
            return Optional.of(fromJson(Json.parse(Gzip.read(gzipped.toByteArray()))));
        } catch (IOException e) {
            throw new IllegalStateException("conversation '" + conversationId + "' has an unreadable body", e);
        }
    }

    void delete(String partition, String conversationId, String token, int parts) {
        for (int i = 0; i < parts; i++) {
            String sk = prefix(conversationId, token) + i;
            dynamo.deleteItem(b -> b.tableName(table).key(key(partition, sk)));
        }
    }

    /** Every body of the conversation, including any part a crashed save left behind. */
    void deleteAll(String partition, String conversationId) {
        Map<String, AttributeValue> start = null;
        do {
            QueryRequest.Builder q = QueryRequest.builder().tableName(table)
                    .keyConditionExpression("pk = :o AND begins_with(sk, :b)")
                    .expressionAttributeValues(Map.of(":o", Attributes.s(partition),
                            ":b", Attributes.s("BODY#" + conversationId + "#")))
                    .projectionExpression("pk, sk");
            if (start != null) {
                q.exclusiveStartKey(start);
            }
            QueryResponse r = dynamo.query(q.build());
            r.items().forEach(i -> dynamo.deleteItem(b -> b.tableName(table).key(i)));
            start = r.hasLastEvaluatedKey() && !r.lastEvaluatedKey().isEmpty() ? r.lastEvaluatedKey() : null;
        } while (start != null);
    }

    private static String prefix(String conversationId, String token) {
        return "BODY#" + conversationId + "#" + token + "#";
    }

    private static Map<String, AttributeValue> key(String partition, String sk) {
        return Map.of("pk", Attributes.s(partition), "sk", Attributes.s(sk));
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

    private static List<byte[]> split(byte[] bytes) {
        List<byte[]> parts = new ArrayList<>();
        for (int from = 0; from < bytes.length; from += PART_BYTES) {
            parts.add(Arrays.copyOfRange(bytes, from, Math.min(bytes.length, from + PART_BYTES)));
        }
        if (parts.isEmpty()) {
            parts.add(new byte[0]);
        }
        return parts;
    }
}
