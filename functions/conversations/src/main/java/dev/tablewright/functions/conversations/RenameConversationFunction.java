package dev.tablewright.functions.conversations;

import dev.tablewright.conversation.ConversationService;
import dev.tablewright.lambda.HttpApiException;
import dev.tablewright.lambda.HttpRequest;
import dev.tablewright.lambda.HttpResponse;

import java.util.Set;

/** {@code PATCH /conversations/{conversationId}} with {@code {"title": "..."}}: renames it; answers its list line. */
public final class RenameConversationFunction extends ConversationApiFunction {

    public RenameConversationFunction() {
        super();
    }

    public RenameConversationFunction(ConversationService conversations) {
        super(conversations);
    }

    @Override
    protected HttpResponse serve(HttpRequest request, String ownerId) {
        String id = request.pathId("conversationId");
        String title = request.body(body -> {
            String text = body.text("title");
            if (!body.has("title")) {
                body.problem("title", "title is required: the conversation's new title");
            }
            body.refuseUnknown(Set.of("title"));
            return text;
        });
        String trimmed = title.strip();
        if (trimmed.isEmpty() || trimmed.length() > ConversationService.MAX_TITLE_CHARS) {
            throw HttpApiException.invalid("title", "title must be 1 to " + ConversationService.MAX_TITLE_CHARS + " characters");
        }
        return HttpResponse.ok(summary(conversations.rename(ownerId, id, trimmed).orElseThrow(() -> notFound(id))));
    }
}
