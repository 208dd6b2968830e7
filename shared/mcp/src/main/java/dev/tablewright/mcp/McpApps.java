package dev.tablewright.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.catalogue.DatabaseToolDefinitions;
import io.modelcontextprotocol.spec.McpSchema;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The MCP Apps extension ({@value #EXTENSION_ID}, SEP-1865): the preview view, one self-contained HTML resource at
 * {@value #PREVIEW_URI} that a host renders in a sandboxed iframe for {@code preview_table_config}, and whether a
 * client asked for it. Only a client that declares the extension with the {@value #MIME_TYPE} MIME type is offered
 * the view and the tools only the view calls; every other client gets the server as it was before the extension.
 */
public final class McpApps {

    public static final String EXTENSION_ID = "io.modelcontextprotocol/ui";
    public static final String MIME_TYPE = "text/html;profile=mcp-app";
    /** The preview's view, as the tool catalogue names it for {@code preview_table_config}. */
    public static final String PREVIEW_URI = DatabaseToolDefinitions.PREVIEW_VIEW;

    /** The view's file on the class path (beside this class). */
    static final String PREVIEW_VIEW = "preview-view.html";

    /** The view, read once: it never changes while the function runs, and it holds nothing of any user. */
    private static final String PREVIEW_HTML = load(PREVIEW_VIEW);

    /**
     * The resource's {@code _meta.ui}: a CSP that allows no outside domain (the view fetches nothing, loads
     * nothing; every value it shows arrives through the host), and a border around it.
     */
    private static final Map<String, Object> PREVIEW_META = Map.of("ui", Map.of(
            "csp", Map.of("connectDomains", List.of(), "resourceDomains", List.of(), "frameDomains", List.of(),
                    "baseUriDomains", List.of()),
            "prefersBorder", true));

    private McpApps() {
    }

    /**
     * Whether a client's {@code capabilities} declare the extension for HTML views:
     * {@code extensions["io.modelcontextprotocol/ui"].mimeTypes} holds {@value #MIME_TYPE}.
     */
    public static boolean declaredBy(JsonNode clientCapabilities) {
        JsonNode mimeTypes = clientCapabilities == null ? null
                : clientCapabilities.path("extensions").path(EXTENSION_ID).path("mimeTypes");
        if (mimeTypes == null || !mimeTypes.isArray()) {
            return false;
        }
        for (JsonNode m : mimeTypes) {
            if (MIME_TYPE.equals(m.asText())) {
                return true;
            }
        }
        return false;
    }

    /** The view's HTML, as {@code resources/read} answers it. */
    public static String previewHtml() {
        return PREVIEW_HTML;
    }

    /** What {@code resources/list} offers a client that declared the extension. */
    static List<McpSchema.Resource> resources() {
        return List.of(new McpSchema.Resource(PREVIEW_URI, "tablewright-preview", "Table config preview",
                "The preview of a table config (its changes, columns and sample rows) with Keep and Discard",
                MIME_TYPE, (long) PREVIEW_HTML.getBytes(StandardCharsets.UTF_8).length, null, PREVIEW_META));
    }

    /** {@code resources/read} of {@code uri}: the view, or empty for a URI this server does not have. */
    static Optional<McpSchema.ReadResourceResult> read(String uri) {
        if (!PREVIEW_URI.equals(uri)) {
            return Optional.empty();
        }
        return Optional.of(new McpSchema.ReadResourceResult(List.of(
                new McpSchema.TextResourceContents(PREVIEW_URI, MIME_TYPE, PREVIEW_HTML, PREVIEW_META))));
    }

    private static String load(String name) {
        try (InputStream in = McpApps.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException(name + " is missing beside " + McpApps.class.getName());
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
