package dev.tablewright.userinput;

import java.time.Instant;
import java.util.List;

/** Saved input values (port; the DynamoDB adapter is {@code dev.tablewright.dynamodb.DynamoDbSavedValuesStore}). */
public interface SavedValuesStore {

    /** The live values of a conversation and the owner's user-scoped values (empty lists when there are none). */
    SavedValues load(String ownerId, String conversationId, Instant now);

    /** The owner's user-scoped values. */
    List<SavedValue> userValues(String ownerId, Instant now);

    /** Clears one user-scoped value; false when there was none. */
    boolean clearUserValue(String ownerId, String name);
}
