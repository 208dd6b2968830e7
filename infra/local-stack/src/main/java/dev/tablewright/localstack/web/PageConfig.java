package dev.tablewright.localstack.web;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.json.Json;

/**
 * The {@code config.json} the reference page reads beside its index.html: where the HTTP API and the chat are, where
 * its token comes from, and, when the host knows it, which model answers. A deployed stack writes its own
 * (docs/frontend.md); the local stack serves {@link #local}.
 *
 * @param apiUrl   base URL of the HTTP API ({@code ""}: the page's own origin)
 * @param chatUrl  the chat function URL
 * @param tokenUrl a GET answering {@code {"token": "..."}}
 * @param model    which model answers, or null: the page then says nothing about it
 */
public record PageConfig(String apiUrl, String chatUrl, String tokenUrl, Model model) {

    /**
     * The model the chat talks to, as the page names it.
     *
     * @param kind  {@code offline-demo}, {@code live} or {@code scripted}: the page shows a note for the offline demo
     * @param label one line naming it
     */
    public record Model(String kind, String label) {
    }

    public PageConfig(String apiUrl, String chatUrl, String tokenUrl) {
        this(apiUrl, chatUrl, tokenUrl, null);
    }

    /**
     * The local stack's: everything on the page's own origin, the token from the development issuer's token route,
     * so the page is signed in as the development user with no step from the user.
     */
    public static PageConfig local() {
        return local(null);
    }

    public static PageConfig local(Model model) {
        return new PageConfig("", "/chat", "/dev-issuer/token", model);
    }

    public String toJson() {
        ObjectNode json = Json.object().put("apiUrl", apiUrl).put("chatUrl", chatUrl).put("tokenUrl", tokenUrl);
        if (model != null) {
            json.putObject("model").put("kind", model.kind()).put("label", model.label());
        }
        return Json.write(json);
    }
}
