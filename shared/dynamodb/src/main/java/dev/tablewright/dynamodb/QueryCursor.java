package dev.tablewright.dynamodb;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.configstore.InvalidCursorException;
import dev.tablewright.json.Json;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The one cursor of the stores' listings: the key a query stopped at (its {@code LastEvaluatedKey}, the string
 * attributes a listing names) as base64url JSON, opaque to the caller. A cursor this listing did not hand out (not
 * base64url JSON, an attribute missing or refused by the listing's check, too long) is an
 * {@link InvalidCursorException}, never a query with a forged key.
 */
final class QueryCursor {

    /** Longer than any key this project writes: a cursor beyond it was not handed out by a listing. */
    private static final int MAX_CHARS = 1024;

    private QueryCursor() {
    }

    /** The cursor of the next page, or null when the query read to the end. */
    static String next(QueryResponse response, List<String> attributes) {
        if (!response.hasLastEvaluatedKey() || response.lastEvaluatedKey().isEmpty()) {
            return null;
        }
        ObjectNode cursor = Json.object();
        attributes.forEach(a -> cursor.put(a, Attributes.string(response.lastEvaluatedKey(), a)));
        return Base64.getUrlEncoder().withoutPadding().encodeToString(Json.write(cursor).getBytes(StandardCharsets.UTF_8));
    }

    /**
     * The attributes of {@code cursor}, in the order given, each checked by {@code valid} (name → value).
     *
     * @throws InvalidCursorException a cursor this listing did not hand out
     */
    static Map<String, String> read(String cursor, List<String> attributes, Map<String, Predicate<String>> valid) {
        if (cursor.length() > MAX_CHARS) {
            throw new InvalidCursorException();
        }
        try {
            JsonNode c = Json.parse(new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8));
            Map<String, String> key = new LinkedHashMap<>();
            for (String a : attributes) {
                String value = c.path(a).isTextual() ? c.get(a).asText() : "";
                if (value.isEmpty() || !valid.getOrDefault(a, v -> true).test(value)) {
                    throw new InvalidCursorException();
                }
                key.put(a, value);
            }
            return key;
        } catch (IllegalArgumentException | IOException e) {
            throw new InvalidCursorException();
        }
    }

    /** {@code key} as DynamoDB's {@code ExclusiveStartKey}, with the attributes the listing adds (the partition keys). */
    static Map<String, AttributeValue> startKey(Map<String, String> key, Map<String, AttributeValue> partition) {
        Map<String, AttributeValue> start = new LinkedHashMap<>(partition);
        key.forEach((name, value) -> start.put(name, Attributes.s(value)));
        return start;
    }
}
