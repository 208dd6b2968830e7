package dev.tablewright.functions.conversations;

import dev.tablewright.conversation.ConversationService;
import dev.tablewright.lambda.HttpRequest;
import dev.tablewright.lambda.HttpResponse;

/**
 * {@code DELETE /conversations/{conversationId}}: 204; the conversation's messages, input requests and saved values
 * go, and its pending previews can no longer be accepted. 404 for none, or another user's.
 */
public final class DeleteConversationFunction extends ConversationApiFunction {

    public DeleteConversationFunction() {
        super();
    }

    public DeleteConversationFunction(ConversationService conversations) {
        super(conversations);
    }

    @Override
    protected HttpResponse serve(HttpRequest request, String ownerId) {
        String id = request.pathId("conversationId");
        if (!conversations.delete(ownerId, id)) {
            throw notFound(id);
        }
        return HttpResponse.noContent();
    }
}
