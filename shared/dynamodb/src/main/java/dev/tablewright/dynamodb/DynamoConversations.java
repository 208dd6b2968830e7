package dev.tablewright.dynamodb;

import dev.tablewright.conversation.ConversationService;
import dev.tablewright.lambda.Settings;
import dev.tablewright.userinput.InputRequestService;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

import java.time.Clock;
import java.time.Duration;

/** The conversation service on the template's tables, as the chat function and the conversation routes wire it. */
public final class DynamoConversations {

    private DynamoConversations() {
    }

    /** {@code CONVERSATION_TTL_DAYS}: a positive whole number of days, default 90. */
    public static Duration ttl(String days) {
        return Duration.ofDays(Settings.positive("CONVERSATION_TTL_DAYS", days, 90));
    }

    /** The service over these stores, with the input requests and previews a working draft is resolved against. */
    public static ConversationService service(DynamoDbClient dynamo, DynamoConversationStore conversations,
                                              DynamoConfigStore configs, String userInputTable, String previewsTable,
                                              Clock clock) {
        return new ConversationService(conversations,
                new DynamoDbInputRequestStore(dynamo, userInputTable, InputRequestService.Expiry.DEFAULT.valuesTtl()),
                new DynamoPreviewStore(dynamo, previewsTable), configs, clock);
    }
}
