package dev.tablewright.functions.conversations;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.conversation.ConversationService;
import dev.tablewright.conversation.StoredConversation;
import dev.tablewright.conversation.StoredMessage;
import dev.tablewright.conversation.WorkingDraft;
import dev.tablewright.json.Json;
import dev.tablewright.lambda.HttpRequest;
import dev.tablewright.lambda.HttpResponse;

/**
 * {@code GET /conversations/{conversationId}}: the conversation with its UI messages as they were streamed (hand
 * them to {@code useChat} as its initial messages) and the config it is building ({@code workingConfig}, with
 * where it stands in {@code workingDraft}); 404 for none, or another user's.
 */
public final class GetConversationFunction extends ConversationApiFunction {

    public GetConversationFunction() {
        super();
    }

    public GetConversationFunction(ConversationService conversations) {
        super(conversations);
    }

    @Override
    protected HttpResponse serve(HttpRequest request, String ownerId) {
        String id = request.pathId("conversationId");
        StoredConversation c = conversations.find(ownerId, id).orElseThrow(() -> notFound(id));
        ObjectNode out = summary(c.summary());
        ArrayNode messages = out.putArray("messages");
        for (StoredMessage m : c.messages()) {
            messages.add(Json.objectLiteral(m.json()));
        }
        if (c.draft().isPresent()) {
            WorkingDraft d = c.draft().get();
            out.set("workingConfig", Json.objectLiteral(d.configJson()));
            ObjectNode draft = out.putObject("workingDraft").put("source", d.source().name().toLowerCase(java.util.Locale.ROOT))
                    .put("configId", d.configId()).put("previewId", d.previewId());
            if (d.version() != null) {
                draft.put("version", d.version());
            } else {
                draft.putNull("version");
            }
        } else {
            out.putNull("workingConfig");
            out.putNull("workingDraft");
        }
        return HttpResponse.ok(out);
    }
}
