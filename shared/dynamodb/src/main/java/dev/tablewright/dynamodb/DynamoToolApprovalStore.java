package dev.tablewright.dynamodb;

import dev.tablewright.conversation.IssuedApproval;
import dev.tablewright.conversation.ToolApprovalStore;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@link ToolApprovalStore} beside the conversations, in {@code ConversationsTable}: one item per issued approval,
 * {@code pk = OWNER#<ownerId>}, {@code sk = APPROVAL#<conversationId>#<approvalId>} (no list index keys, so the
 * conversation listing never sees them), with the table's TTL attribute {@code expiresAtEpoch} set as for the
 * conversation. Status moves are conditional updates; every read is strongly consistent.
 */
public final class DynamoToolApprovalStore implements ToolApprovalStore {

    private final DynamoDbClient dynamo;
    private final String table;
    private final Duration ttl;

    public DynamoToolApprovalStore(DynamoDbClient dynamo, String table, Duration ttl) {
        this.dynamo = dynamo;
        this.table = table;
        this.ttl = ttl;
    }

    @Override
    public void issue(String ownerId, IssuedApproval a) {
        Map<String, AttributeValue> item = new HashMap<>(key(ownerId, a.conversationId(), a.approvalId()));
        item.put("conversationId", Attributes.s(a.conversationId()));
        item.put("approvalId", Attributes.s(a.approvalId()));
        item.put("messageId", Attributes.s(a.messageId()));
        item.put("toolCallId", Attributes.s(a.toolCallId()));
        item.put("toolName", Attributes.s(a.toolName()));
        item.put("input", Attributes.s(a.inputJson()));
        if (a.subjectId() != null) {
            item.put("subjectId", Attributes.s(a.subjectId()));
        }
        item.put("status", Attributes.s(a.status().name()));
        item.put("issuedAt", Attributes.s(a.issuedAt().toString()));
        item.put("expiresAtEpoch", Attributes.n(a.issuedAt().plus(ttl).getEpochSecond()));
        String writeId = ConditionalWrite.newId();
        item.put(ConditionalWrite.WRITE_ID, Attributes.s(writeId));
        if (!ConditionalWrite.madeOnce(writeId, () -> dynamo.putItem(b -> b.tableName(table).item(item)
                .conditionExpression("attribute_not_exists(pk)")
                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)))) {
            throw new IllegalStateException("approval id '" + a.approvalId() + "' is already issued");
        }
    }

    @Override
    public Optional<IssuedApproval> find(String ownerId, String conversationId, String approvalId) {
        try {
            Map<String, AttributeValue> item = dynamo.getItem(b -> b.tableName(table)
                    .key(key(ownerId, conversationId, approvalId)).consistentRead(true)).item();
            return item == null || item.isEmpty() ? Optional.empty() : Optional.of(read(item));
        } catch (SdkException e) {
            throw DynamoDbFaults.translate(e);
        }
    }

    @Override
    public boolean claim(String ownerId, String conversationId, String approvalId, Instant now, Instant staleBefore) {
        return moveStatus(ownerId, conversationId, approvalId,
                "attribute_exists(pk) AND (#s = :requested OR (#s = :answering AND claimedAt < :stale))",
                "SET #s = :answering, claimedAt = :now",
                Map.of(":requested", Attributes.s(IssuedApproval.Status.REQUESTED.name()),
                        ":answering", Attributes.s(IssuedApproval.Status.ANSWERING.name()),
                        ":stale", Attributes.s(staleBefore.toString()), ":now", Attributes.s(now.toString())));
    }

    @Override
    public void settle(String ownerId, String conversationId, String approvalId, IssuedApproval.Status status, String outcomeJson) {
        // not made when another answer took over a claim it judged dead: its outcome stands
        moveStatus(ownerId, conversationId, approvalId, "#s = :answering", "SET #s = :status, outcome = :outcome",
                Map.of(":answering", Attributes.s(IssuedApproval.Status.ANSWERING.name()),
                        ":status", Attributes.s(status.name()), ":outcome", Attributes.s(outcomeJson == null ? "null" : outcomeJson)));
    }

    @Override
    public List<IssuedApproval> open(String ownerId, String conversationId) {
        try {
            List<IssuedApproval> out = new ArrayList<>();
            for (Map<String, AttributeValue> item : dynamo.queryPaginator(b -> b.tableName(table).consistentRead(true)
                    .keyConditionExpression("pk = :pk AND begins_with(sk, :prefix)")
                    .filterExpression("#s = :requested")
                    .expressionAttributeNames(Map.of("#s", "status"))
                    .expressionAttributeValues(Map.of(":pk", Attributes.s(owner(ownerId)),
                            ":prefix", Attributes.s(prefix(conversationId)),
                            ":requested", Attributes.s(IssuedApproval.Status.REQUESTED.name())))).items()) {
                out.add(read(item));
            }
            return out;
        } catch (SdkException e) {
            throw DynamoDbFaults.translate(e);
        }
    }

    @Override
    public boolean supersede(String ownerId, String conversationId, String approvalId) {
        return moveStatus(ownerId, conversationId, approvalId, "#s = :requested", "SET #s = :superseded",
                Map.of(":requested", Attributes.s(IssuedApproval.Status.REQUESTED.name()),
                        ":superseded", Attributes.s(IssuedApproval.Status.SUPERSEDED.name())));
    }

    /**
     * One conditional update of an approval's status ({@code #s}): whether it was made, by this call (an attempt
     * whose answer was lost included: the item names the write that moved it last).
     */
    private boolean moveStatus(String ownerId, String conversationId, String approvalId, String condition, String update,
                               Map<String, AttributeValue> values) {
        String writeId = ConditionalWrite.newId();
        Map<String, AttributeValue> withWrite = new HashMap<>(values);
        withWrite.put(":w", Attributes.s(writeId));
        return ConditionalWrite.madeOnce(writeId, () -> dynamo.updateItem(b -> b.tableName(table).key(key(ownerId, conversationId, approvalId))
                .conditionExpression(condition)
                .updateExpression(update + ", #w = :w")
                .expressionAttributeNames(Map.of("#s", "status", "#w", ConditionalWrite.WRITE_ID))
                .expressionAttributeValues(withWrite)
                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)));
    }

    private static IssuedApproval read(Map<String, AttributeValue> item) {
        String outcome = Attributes.string(item, "outcome");
        return new IssuedApproval(Attributes.string(item, "conversationId"), Attributes.string(item, "approvalId"),
                Attributes.string(item, "messageId"), Attributes.string(item, "toolCallId"),
                Attributes.string(item, "toolName"), Attributes.string(item, "input"), Attributes.string(item, "subjectId"),
                IssuedApproval.Status.valueOf(Attributes.string(item, "status")), "null".equals(outcome) ? null : outcome,
                Attributes.instant(item, "issuedAt"), Attributes.instant(item, "claimedAt"));
    }

    private static Map<String, AttributeValue> key(String ownerId, String conversationId, String approvalId) {
        return Map.of("pk", Attributes.s(owner(ownerId)), "sk", Attributes.s(prefix(conversationId) + approvalId));
    }

    private static String prefix(String conversationId) {
        return "APPROVAL#" + conversationId + "#";
    }

    private static String owner(String ownerId) {
        return "OWNER#" + ownerId;
    }
}
