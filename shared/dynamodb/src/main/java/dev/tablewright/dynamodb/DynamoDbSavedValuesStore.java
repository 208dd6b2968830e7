package dev.tablewright.dynamodb;

import dev.tablewright.userinput.SavedValue;
import dev.tablewright.userinput.SavedValues;
import dev.tablewright.userinput.SavedValuesStore;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static dev.tablewright.dynamodb.UserInputItems.VALUE_PREFIX;
import static dev.tablewright.dynamodb.UserInputItems.conversationPk;
import static dev.tablewright.dynamodb.UserInputItems.key;
import static dev.tablewright.dynamodb.UserInputItems.s;
import static dev.tablewright.dynamodb.UserInputItems.userPk;

/** {@link SavedValuesStore} on {@code UserInputTable} (layout: {@link UserInputItems}); expired values are skipped on read. */
public final class DynamoDbSavedValuesStore implements SavedValuesStore {

    private final DynamoDbClient client;
    private final String table;

    public DynamoDbSavedValuesStore(DynamoDbClient client, String table) {
        this.client = client;
        this.table = table;
    }

    @Override
    public SavedValues load(String ownerId, String conversationId, Instant now) {
        return new SavedValues(values(conversationPk(ownerId, conversationId), now), values(userPk(ownerId), now));
    }

    @Override
    public List<SavedValue> userValues(String ownerId, Instant now) {
        return values(userPk(ownerId), now);
    }

    /** Read first: a delete whose answer was lost is retried by the SDK and then finds nothing, as if there had been none. */
    @Override
    public boolean clearUserValue(String ownerId, String name) {
        try {
            var key = key(userPk(ownerId), VALUE_PREFIX + name);
            boolean existed = client.getItem(b -> b.tableName(table).key(key).consistentRead(true).projectionExpression("pk")).hasItem();
            if (existed) {
                client.deleteItem(b -> b.tableName(table).key(key));
            }
            return existed;
        } catch (SdkException e) {
            throw DynamoDbFaults.translate(e);
        }
    }

    private List<SavedValue> values(String pk, Instant now) {
        List<SavedValue> out = new ArrayList<>();
        Map<String, AttributeValue> start = null;
        try {
            do {
                Map<String, AttributeValue> exclusiveStart = start;
                QueryResponse page = client.query(b -> b.tableName(table).consistentRead(true)
                        .keyConditionExpression("pk = :pk AND begins_with(sk, :prefix)")
                        .expressionAttributeValues(Map.of(":pk", s(pk), ":prefix", s(VALUE_PREFIX)))
                        .exclusiveStartKey(exclusiveStart));
                for (Map<String, AttributeValue> item : page.items()) {
                    SavedValue v = UserInputItems.value(item);
                    if (v.liveAt(now)) {
                        out.add(v);
                    }
                }
                start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
            } while (start != null);
        } catch (SdkException e) {
            throw DynamoDbFaults.translate(e);
        }
        return out;
    }
}
