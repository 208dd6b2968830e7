package dev.tablewright.functions.conversations;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.conversation.ConversationService;
import dev.tablewright.lambda.HttpApiException;
import dev.tablewright.lambda.HttpRequest;
import dev.tablewright.lambda.HttpResponse;

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
        JsonNode body = request.bodyTree();
        if (!body.isObject()) {
            throw HttpApiException.invalid("body", "the body must be a JSON object {\"title\": \"...\"}");
        }
        var unknown = new java.util.ArrayList<String>();
        body.fieldNames().forEachRemaining(f -> {
            if (!f.equals("title")) {
                unknown.add(f);
            }
        });
        if (!unknown.isEmpty()) {
            throw HttpApiException.invalid(unknown.getFirst(), "unknown field '" + unknown.getFirst() + "': only title can be changed");
        }
        JsonNode title = body.get("title");
        if (title == null || !title.isTextual()) {
            throw HttpApiException.invalid("title", "title is required and must be a string");
        }
        String trimmed = title.textValue().strip();
        if (trimmed.isEmpty() || trimmed.length() > ConversationService.MAX_TITLE_CHARS) {
            throw HttpApiException.invalid("title", "title must be 1 to " + ConversationService.MAX_TITLE_CHARS + " characters");
        }
        return HttpResponse.ok(summary(conversations.rename(ownerId, id, trimmed).orElseThrow(() -> notFound(id))));
    }
}
