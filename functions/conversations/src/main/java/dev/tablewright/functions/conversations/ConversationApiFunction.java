package dev.tablewright.functions.conversations;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.conversation.ConversationService;
import dev.tablewright.conversation.ConversationSummary;
import dev.tablewright.dynamodb.DynamoConfigStore;
import dev.tablewright.dynamodb.DynamoConversationStore;
import dev.tablewright.dynamodb.DynamoConversations;
import dev.tablewright.dynamodb.DynamoDbClients;
import dev.tablewright.json.Json;
import dev.tablewright.lambda.Env;
import dev.tablewright.lambda.HttpApiException;
import dev.tablewright.lambda.HttpApiFunction;
import dev.tablewright.lambda.HttpRequest;
import dev.tablewright.lambda.HttpResponse;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

import java.time.Clock;
import java.time.Duration;

/**
 * Base of the conversation routes ({@code /conversations}, {@code /conversations/{conversationId}}): builds the
 * {@link ConversationService} once, at init, from the environment ({@code CONVERSATIONS_TABLE}, and those of
 * {@code USER_INPUT_TABLE}, {@code PREVIEWS_TABLE}, {@code CONFIGS_TABLE} the route uses),
 * and answers a cursor this listing did not hand out with a 400 naming {@code query.cursor}.
 */
public abstract class ConversationApiFunction extends HttpApiFunction {

    protected final ConversationService conversations;

    protected ConversationApiFunction() {
        this(fromEnvironment());
    }

    protected ConversationApiFunction(ConversationService conversations) {
        this.conversations = conversations;
    }

    /** The service as a deployed function builds it (the local stack too, after {@code Env.override}). */
    public static ConversationService fromEnvironment() {
        ConversationSettings settings = ConversationSettings.fromEnvironment();
        return service(DynamoDbClients.fromEnvironment(Env.all()), settings.conversationsTable(), settings.userInputTable(),
                settings.previewsTable(), settings.configsTable(), settings.ttl(), Clock.systemUTC());
    }

    public static ConversationService service(DynamoDbClient dynamo, String conversationsTable, String userInputTable,
                                              String previewsTable, String configsTable, Duration ttl, Clock clock) {
        return DynamoConversations.service(dynamo, new DynamoConversationStore(dynamo, conversationsTable, ttl),
                new DynamoConfigStore(dynamo, configsTable), userInputTable, previewsTable, clock);
    }

    @Override
    protected final HttpResponse handle(HttpRequest request) {
        return serve(request, request.caller().ownerId());
    }

    protected abstract HttpResponse serve(HttpRequest request, String ownerId);

    /** One line of the conversation list, as the routes answer it. */
    static ObjectNode summary(ConversationSummary s) {
        ObjectNode out = Json.object().put("id", s.id()).put("title", s.title())
                .put("createdAt", s.createdAt().toString()).put("updatedAt", s.updatedAt().toString());
        out.put("configId", s.configId());
        return out;
    }

    static HttpApiException notFound(String conversationId) {
        return HttpApiException.notFound("no conversation '" + conversationId + "'");
    }
}
