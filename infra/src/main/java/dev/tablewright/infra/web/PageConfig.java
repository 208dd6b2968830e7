package dev.tablewright.infra.web;

import dev.tablewright.json.Json;

/**
 * The {@code config.json} the reference page reads beside its index.html: where the HTTP API and the chat are, and
 * where its token comes from. A deployed stack writes its own (docs/frontend.md); the local stack serves
 * {@link #local()}.
 *
 * @param apiUrl   base URL of the HTTP API ({@code ""}: the page's own origin)
 * @param chatUrl  the chat function URL
 * @param tokenUrl a GET answering {@code {"token": "..."}}
 */
public record PageConfig(String apiUrl, String chatUrl, String tokenUrl) {

    /**
     * The local stack's: everything on the page's own origin, the token from the development issuer's token route,
     * so the page is signed in as the development user with no step from the user.
     */
    public static PageConfig local() {
        return new PageConfig("", "/chat", "/dev-issuer/token");
    }

    public String toJson() {
        return Json.write(Json.object().put("apiUrl", apiUrl).put("chatUrl", chatUrl).put("tokenUrl", tokenUrl));
    }
}
