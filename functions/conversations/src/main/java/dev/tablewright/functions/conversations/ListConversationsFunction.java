package dev.tablewright.functions.conversations;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.configstore.Page;
import dev.tablewright.conversation.ConversationService;
import dev.tablewright.conversation.ConversationSummary;
import dev.tablewright.json.Json;
import dev.tablewright.lambda.HttpRequest;
import dev.tablewright.lambda.HttpResponse;

/** {@code GET /conversations?limit=&cursor=}: the caller's conversations, most recently updated first, a page at a time. */
public final class ListConversationsFunction extends ConversationApiFunction {

    public ListConversationsFunction() {
        super();
    }

    public ListConversationsFunction(ConversationService conversations) {
        super(conversations);
    }

    @Override
    protected HttpResponse serve(HttpRequest request, String ownerId) {
        Page<ConversationSummary> page = conversations.list(ownerId, request.pageLimit(), request.query("cursor").orElse(null));
        ObjectNode out = Json.object();
        ArrayNode items = out.putArray("items");
        page.items().forEach(s -> items.add(summary(s)));
        out.put("nextCursor", page.nextCursor());
        return HttpResponse.ok(out);
    }
}
