package dev.tablewright.functions.conversations;

import dev.tablewright.dynamodb.DynamoConversations;
import dev.tablewright.lambda.Env;
import dev.tablewright.lambda.Tables;

import java.time.Duration;

/**
 * What the conversation routes read from their environment, once, when a handler is built: the conversations table
 * ({@code CONVERSATIONS_TABLE}, required), how long a conversation is kept ({@code CONVERSATION_TTL_DAYS}), and the
 * tables a conversation's input requests, previews and configs live in. Each route's function is given only the
 * tables it touches (template.yaml); the others keep their logical ids here and are never called.
 */
record ConversationSettings(String conversationsTable, String userInputTable, String previewsTable, String configsTable,
                            Duration ttl) {

    static ConversationSettings fromEnvironment() {
        Tables tables = Tables.fromEnvironment(Env.all());
        return new ConversationSettings(Env.require("CONVERSATIONS_TABLE"), tables.userInput(),
                tables.previews(), tables.configs(),
                DynamoConversations.ttl(Env.get("CONVERSATION_TTL_DAYS")));
    }
}
