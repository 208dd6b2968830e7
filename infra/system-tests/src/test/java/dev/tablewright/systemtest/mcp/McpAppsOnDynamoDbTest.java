package dev.tablewright.systemtest.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.dynamodb.DynamoConfigStore;
import dev.tablewright.dynamodb.DynamoPreviewStore;
import dev.tablewright.fakes.sampledb.SampleDatabase;
import dev.tablewright.http.stream.InMemoryResponseStream;
import dev.tablewright.json.Json;
import dev.tablewright.mcp.McpApps;
import dev.tablewright.mcp.McpEndpoint;
import dev.tablewright.mcp.McpToolCatalogue;
import dev.tablewright.preview.PreviewStatus;
import dev.tablewright.tools.PreviewTableConfigTool;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * MCP Apps ({@code io.modelcontextprotocol/ui}) on the endpoint, over DynamoDB Local and the sample database with
 * the real preview tool: what a client that declared the extension is offered (the view on preview_table_config,
 * the app-only keep_preview and discard_preview, the view's resource) and what any other client is offered (today's
 * twelve tools, nothing more); the view as a self-contained page; Keep saving exactly once without a question, under
 * the owner checks every tool has; and all of it for a 2026-07-28 client that declares the extension in its requests'
 * {@code _meta}, with no session. The bearer token is the user's id here; the browser's side is McpAppBrowserTest.
 */
class McpAppsOnDynamoDbTest {

    private static final String UI = "{\"extensions\":{\"io.modelcontextprotocol/ui\":{\"mimeTypes\":[\"text/html;profile=mcp-app\"]}}}";
    private static final List<String> TODAYS_TOOLS = List.of("apply_column_change", "apply_filter_change",
            "apply_join_change", "apply_sort_change", "validate_table_config", "discover_table_reference",
            "search_database_schema", "preview_table_config", "get_table_config", "list_table_configs", "accept_preview",
            "reject_preview");
    private static final String ORDERS = """
            {"name": "Orders with their number", "data_source": [{"schema": "sales", "source": "orders",
             "select": {"columns": [{"name": "id"}, {"name": "order_number"}]}}],
             "visual_settings": {"columns": {"id": {"header": "ID", "type": "number"}, "order_number": {"header": "Order", "type": "string"}}}}""";
    private static McpOnDynamoDb bed;
    private static DynamoConfigStore configs;
    private static DynamoPreviewStore previews;
    private static McpEndpoint endpoint;
    private static int ids;

    @BeforeAll
    static void start() throws Exception {
        bed = McpOnDynamoDb.start("apps", Map.of("MCP_ELICITATION_WAIT_SECONDS", "2"), SampleDatabase.SCHEMAS);
        configs = bed.configs();
        previews = bed.previews();
        PreviewTableConfigTool preview = new PreviewTableConfigTool(bed.databases(), previews,
                (owner, id) -> configs.get(owner, id).map(dev.tablewright.configstore.StoredConfig::config),
                Clock.systemUTC(), 5, Duration.ofHours(1));
        endpoint = bed.endpoint(Clock.systemUTC(), List.of(preview));
    }

    @AfterAll
    static void stop() {
        if (bed != null) {
            bed.close();
        }
    }

    @Test
    void aClientWithoutTheExtensionIsOfferedTodaysToolsAndNoView() {
        for (String capabilities : List.of("{\"elicitation\":{}}", "{\"extensions\":{\"io.modelcontextprotocol/ui\":{}}}",
                "{\"extensions\":{\"io.modelcontextprotocol/ui\":{\"mimeTypes\":[\"text/html\"]}}}")) {
            String session = initialize("user-plain", "2025-11-25", capabilities);
            JsonNode tools = request("user-plain", session, "tools/list", "{}").path("result").path("tools");
            assertEquals(TODAYS_TOOLS, names(tools), capabilities);
            tools.forEach(t -> assertFalse(t.has("_meta"), "no UI metadata for " + capabilities + ": " + t));
            assertEquals(0, request("user-plain", session, "resources/list", "{}").path("result").path("resources").size(), capabilities);
            JsonNode keep = request("user-plain", session, "tools/call", "{\"name\":\"keep_preview\",\"arguments\":{\"previewId\":\"prv_x\"}}");
            assertEquals(-32602, keep.path("error").path("code").asInt(), "the view's tools do not exist for it: " + keep);
        }
    }

    @Test
    void aClientWithTheExtensionIsOfferedTheViewAndItsAppOnlyTools() {
        JsonNode initialized = initializeAnswer("user-ui", "2025-11-25", UI);
        JsonNode capabilities = initialized.path("result").path("capabilities");
        assertTrue(capabilities.path("resources").isObject(), "the resources capability: " + capabilities);
        assertTrue(capabilities.path("extensions").has(McpApps.EXTENSION_ID), capabilities.toString());
        String session = sessionOf(initialized);

        JsonNode tools = request("user-ui", session, "tools/list", "{}").path("result").path("tools");
        List<String> expected = new ArrayList<>(TODAYS_TOOLS);
        expected.addAll(List.of(McpToolCatalogue.KEEP_PREVIEW, McpToolCatalogue.DISCARD_PREVIEW));
        assertEquals(expected, names(tools));
        assertEquals(McpApps.PREVIEW_URI, tool(tools, "preview_table_config").path("_meta").path("ui").path("resourceUri").asText());
        for (String appOnly : List.of(McpToolCatalogue.KEEP_PREVIEW, McpToolCatalogue.DISCARD_PREVIEW)) {
            JsonNode t = tool(tools, appOnly);
            assertEquals("[\"app\"]", t.path("_meta").path("ui").path("visibility").toString(), t.toString());
            assertFalse(t.path("annotations").path("readOnlyHint").asBoolean(true), t.toString());
        }
        assertTrue(tool(tools, McpToolCatalogue.KEEP_PREVIEW).has("outputSchema"), "Keep answers the saved version");
        for (String modelTool : List.of("accept_preview", "reject_preview", "apply_column_change")) {
            assertFalse(tool(tools, modelTool).has("_meta"), modelTool + " is the model's, as before");
        }

        JsonNode listed = request("user-ui", session, "resources/list", "{}").path("result").path("resources");
        assertEquals(1, listed.size(), listed.toString());
        assertEquals(McpApps.PREVIEW_URI, listed.path(0).path("uri").asText());
        assertEquals(McpApps.MIME_TYPE, listed.path(0).path("mimeType").asText());
    }

    @Test
    void theViewIsOneSelfContainedPageThatAllowsNoOutsideDomain() {
        String session = initialize("user-ui", "2025-06-18", UI);
        JsonNode read = request("user-ui", session, "resources/read", "{\"uri\":\"" + McpApps.PREVIEW_URI + "\"}").path("result");
        assertEquals(1, read.path("contents").size(), read.toString());
        JsonNode contents = read.path("contents").path(0);
        assertEquals(McpApps.PREVIEW_URI, contents.path("uri").asText());
        assertEquals("text/html;profile=mcp-app", contents.path("mimeType").asText());
        JsonNode csp = contents.path("_meta").path("ui").path("csp");
        for (String domains : List.of("connectDomains", "resourceDomains", "frameDomains", "baseUriDomains")) {
            assertEquals("[]", csp.path(domains).toString(), "no outside domain: " + csp);
        }

        String html = contents.path("text").asText();
        assertTrue(html.startsWith("<!doctype html>"), html.substring(0, 40));
        assertEquals(1, count(html, "<script"), "one inline script");
        assertEquals(1, count(html, "<style"), "one inline style");
        // nothing loaded or fetched from anywhere, nothing kept in the browser, no markup built from values
        for (String outside : List.of("src=", "href=", "<link", "@import", "url(", "http:", "https:", "//cdn", "fetch(",
                "XMLHttpRequest", "WebSocket", "EventSource", "sendBeacon", "import(", "localStorage", "sessionStorage",
                "indexedDB", "document.cookie", "innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(")) {
            assertFalse(html.contains(outside), "the view contains " + outside);
        }
        // the handshake, and the view's only calls: the app-only tools
        assertTrue(html.contains("'ui/initialize'") && html.contains("'ui/notifications/initialized'"), "the handshake");
        Matcher tools = Pattern.compile("const (KEEP|DISCARD)_TOOL = '([a-z_]+)'").matcher(html);
        List<String> called = new ArrayList<>();
        while (tools.find()) {
            called.add(tools.group(2));
        }
        assertEquals(List.of(McpToolCatalogue.KEEP_PREVIEW, McpToolCatalogue.DISCARD_PREVIEW), called);

        // every view the tool catalogue names is one the server serves
        for (dev.tablewright.toolcontract.ToolDefinition d : dev.tablewright.catalogue.ToolCatalogue.registry().all()) {
            if (d.view() != null) {
                JsonNode served = request("user-ui", session, "resources/read", "{\"uri\":\"" + d.view() + "\"}");
                assertEquals(McpApps.MIME_TYPE, served.path("result").path("contents").path(0).path("mimeType").asText(), d.name());
            }
        }
        // a ui:// URI the server does not have: the 2025 revisions' -32002, with the URI
        JsonNode unknown = request("user-ui", session, "resources/read", "{\"uri\":\"ui://tablewright/nothing\"}");
        assertEquals(-32002, unknown.path("error").path("code").asInt(), unknown.toString());
        assertEquals("ui://tablewright/nothing", unknown.path("error").path("data").path("uri").asText(), unknown.toString());
        JsonNode noUri = request("user-ui", session, "resources/read", "{}");
        assertEquals(-32602, noUri.path("error").path("code").asInt(), noUri.toString());
    }

    @Test
    void keepSavesOnceWithoutAQuestionAndDiscardRejects() {
        // no elicitation capability at all: the click is the user's answer, nothing is asked
        String session = initialize("user-k", "2025-11-25", UI);
        JsonNode previewed = callTool("user-k", session, "preview_table_config", "{\"config\":" + ORDERS + "}");
        assertFalse(previewed.path("isError").asBoolean(), previewed.toString());
        JsonNode view = previewed.path("structuredContent");
        String previewId = view.path("previewId").asText();
        assertTrue(previewId.startsWith("prv_"), view.toString());
        assertEquals("Orders with their number", view.path("config").path("name").asText());
        assertFalse(view.path("isUpdate").asBoolean(true), view.toString());
        assertEquals("[\"id\",\"order_number\"]", view.path("diff").path("columns").path("added").toString(), view.toString());
        assertEquals("Order", view.path("columns").path(1).path("header").asText(), view.toString());
        assertTrue(view.path("rows").size() > 0, view.toString());
        assertTrue(previewed.path("content").path(0).path("text").asText().contains(previewId), "the model's text is still there");

        JsonNode othersKeep = callTool("user-other", initialize("user-other", "2025-11-25", UI), McpToolCatalogue.KEEP_PREVIEW,
                "{\"previewId\":\"" + previewId + "\"}");
        assertTrue(othersKeep.path("isError").asBoolean(), othersKeep.toString());
        assertEquals("previewId: there is no preview " + previewId, othersKeep.path("content").path(0).path("text").asText(),
                "another user's preview reads as a missing one");

        List<JsonNode> kept = messages(post("user-k", session, call(McpToolCatalogue.KEEP_PREVIEW, "{\"previewId\":\"" + previewId + "\"}")));
        assertEquals(1, kept.size(), "one answer, no question first: " + kept);
        JsonNode saved = kept.get(0).path("result");
        assertFalse(saved.path("isError").asBoolean(), saved.toString());
        assertEquals(1, saved.path("structuredContent").path("version").asInt(), saved.toString());
        String configId = saved.path("structuredContent").path("configId").asText();

        JsonNode again = callTool("user-k", session, McpToolCatalogue.KEEP_PREVIEW, "{\"previewId\":\"" + previewId + "\"}");
        assertTrue(again.path("isError").asBoolean(), "a second click saves nothing: " + again);
        assertTrue(again.path("content").path(0).path("text").asText().contains("accepted, no longer pending"), again.toString());
        assertEquals(1, configs.versions("user-k", configId, 10, null).items().size(), "exactly one version");

        String second = callTool("user-k", session, "preview_table_config", "{\"config\":" + ORDERS + "}")
                .path("structuredContent").path("previewId").asText();
        JsonNode discarded = callTool("user-k", session, McpToolCatalogue.DISCARD_PREVIEW, "{\"previewId\":\"" + second + "\"}");
        assertFalse(discarded.path("isError").asBoolean(), discarded.toString());
        assertEquals(PreviewStatus.REJECTED, previews.find("user-k", second).orElseThrow().statusAt(Instant.now()));
        JsonNode keepDiscarded = callTool("user-k", session, McpToolCatalogue.KEEP_PREVIEW, "{\"previewId\":\"" + second + "\"}");
        assertTrue(keepDiscarded.path("isError").asBoolean(), keepDiscarded.toString());
        assertEquals(1, configs.list("user-k", 10, null).items().size(), "the discarded preview saved nothing");
    }

    @Test
    void aStatelessClientDeclaringTheExtensionInItsMetaGetsTheViewAndKeepSavesOnce() {
        // 2026-07-28: no session; the capabilities travel in each request's _meta, and they alone decide what is offered
        JsonNode discovered = stateless("user-26", "server/discover", "{}", UI).path("result");
        assertTrue(discovered.path("capabilities").path("resources").isObject(), discovered.toString());
        assertTrue(discovered.path("capabilities").path("extensions").has(McpApps.EXTENSION_ID), discovered.toString());

        JsonNode plainList = stateless("user-26", "tools/list", "{}", "{\"elicitation\":{\"form\":{}}}").path("result");
        assertEquals(TODAYS_TOOLS, names(plainList.path("tools")), "without the extension, today's tools");
        plainList.path("tools").forEach(t -> assertFalse(t.has("_meta"), "no UI metadata: " + t));
        JsonNode plainKeep = stateless("user-26", "tools/call", "{\"name\":\"keep_preview\",\"arguments\":{\"previewId\":\"prv_x\"}}",
                "{}");
        assertEquals(-32602, plainKeep.path("error").path("code").asInt(), "the view's tools do not exist for it: " + plainKeep);
        assertEquals(0, stateless("user-26", "resources/list", "{}", "{}").path("result").path("resources").size());

        JsonNode list = stateless("user-26", "tools/list", "{}", UI).path("result");
        assertEquals("complete", list.path("resultType").asText(), list.toString());
        assertTrue(list.path("ttlMs").isIntegralNumber() && "public".equals(list.path("cacheScope").asText()), "cacheable: " + list);
        List<String> expected = new ArrayList<>(TODAYS_TOOLS);
        expected.addAll(List.of(McpToolCatalogue.KEEP_PREVIEW, McpToolCatalogue.DISCARD_PREVIEW));
        assertEquals(expected, names(list.path("tools")));
        assertEquals(McpApps.PREVIEW_URI, tool(list.path("tools"), "preview_table_config").path("_meta").path("ui").path("resourceUri").asText());
        for (String appOnly : List.of(McpToolCatalogue.KEEP_PREVIEW, McpToolCatalogue.DISCARD_PREVIEW)) {
            assertEquals("[\"app\"]", tool(list.path("tools"), appOnly).path("_meta").path("ui").path("visibility").toString(), appOnly);
        }

        JsonNode resources = stateless("user-26", "resources/list", "{}", UI).path("result");
        assertEquals(McpApps.PREVIEW_URI, resources.path("resources").path(0).path("uri").asText(), resources.toString());
        assertTrue(resources.path("ttlMs").isIntegralNumber() && "public".equals(resources.path("cacheScope").asText()), resources.toString());
        JsonNode templates = stateless("user-26", "resources/templates/list", "{}", UI).path("result");
        assertEquals(0, templates.path("resourceTemplates").size(), templates.toString());
        assertTrue(templates.path("ttlMs").isIntegralNumber(), templates.toString());
        JsonNode read = stateless("user-26", "resources/read", "{\"uri\":\"" + McpApps.PREVIEW_URI + "\"}", UI).path("result");
        assertEquals(McpApps.MIME_TYPE, read.path("contents").path(0).path("mimeType").asText(), read.toString());
        assertEquals(McpApps.previewHtml(), read.path("contents").path(0).path("text").asText());
        assertEquals("complete", read.path("resultType").asText());
        assertTrue(read.path("ttlMs").isIntegralNumber() && "public".equals(read.path("cacheScope").asText()), "cacheable");
        // a ui:// URI the server does not have: Invalid Params from 2026-07-28 on (SEP-2164), still with the URI
        JsonNode unknown = stateless("user-26", "resources/read", "{\"uri\":\"ui://tablewright/nothing\"}", UI);
        assertEquals(-32602, unknown.path("error").path("code").asInt(), unknown.toString());
        assertEquals("ui://tablewright/nothing", unknown.path("error").path("data").path("uri").asText(), unknown.toString());

        JsonNode previewed = stateless("user-26", "tools/call", "{\"name\":\"preview_table_config\",\"arguments\":{\"config\":"
                + ORDERS + "}}", UI).path("result");
        assertEquals("complete", previewed.path("resultType").asText(), previewed.toString());
        String previewId = previewed.path("structuredContent").path("previewId").asText();
        assertTrue(previewId.startsWith("prv_"), previewed.toString());
        assertTrue(previewed.path("structuredContent").path("rows").size() > 0, previewed.toString());

        JsonNode othersKeep = stateless("user-26-other", "tools/call", keepOrDiscard(McpToolCatalogue.KEEP_PREVIEW, previewId), UI).path("result");
        assertEquals("previewId: there is no preview " + previewId, othersKeep.path("content").path(0).path("text").asText(),
                "another user's preview reads as a missing one");

        // the click is the answer: no input_required, even though this client could answer a form
        String formsAndUi = "{\"elicitation\":{\"form\":{}}," + UI.substring(1);
        JsonNode kept = stateless("user-26", "tools/call", keepOrDiscard(McpToolCatalogue.KEEP_PREVIEW, previewId), formsAndUi).path("result");
        assertEquals("complete", kept.path("resultType").asText(), kept.toString());
        assertFalse(kept.path("isError").asBoolean(), kept.toString());
        assertEquals(1, kept.path("structuredContent").path("version").asInt(), kept.toString());
        String configId = kept.path("structuredContent").path("configId").asText();
        JsonNode again = stateless("user-26", "tools/call", keepOrDiscard(McpToolCatalogue.KEEP_PREVIEW, previewId), UI).path("result");
        assertTrue(again.path("isError").asBoolean(), "a second click saves nothing: " + again);
        assertEquals(1, configs.versions("user-26", configId, 10, null).items().size(), "exactly one version");

        String second = stateless("user-26", "tools/call", "{\"name\":\"preview_table_config\",\"arguments\":{\"config\":"
                + ORDERS + "}}", UI).path("result").path("structuredContent").path("previewId").asText();
        JsonNode discarded = stateless("user-26", "tools/call", keepOrDiscard(McpToolCatalogue.DISCARD_PREVIEW, second), UI).path("result");
        assertFalse(discarded.path("isError").asBoolean(), discarded.toString());
        assertEquals(PreviewStatus.REJECTED, previews.find("user-26", second).orElseThrow().statusAt(Instant.now()));
        assertEquals(1, configs.list("user-26", 10, null).items().size(), "the discarded preview saved nothing");
    }

    // ---- the endpoint, in process ----

    private static String keepOrDiscard(String tool, String previewId) {
        return "{\"name\":\"" + tool + "\",\"arguments\":{\"previewId\":\"" + previewId + "\"}}";
    }

    /**
     * A 2026-07-28 request: no session, the version and the client's capabilities in {@code _meta}, and the headers a
     * conforming client mirrors from the body.
     */
    private static JsonNode stateless(String user, String method, String params, String capabilities) {
        com.fasterxml.jackson.databind.node.ObjectNode body;
        try {
            body = (com.fasterxml.jackson.databind.node.ObjectNode) Json.parse("{\"jsonrpc\":\"2.0\",\"id\":" + (++ids)
                    + ",\"method\":\"" + method + "\",\"params\":" + params + "}");
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException(e);
        }
        ((com.fasterxml.jackson.databind.node.ObjectNode) body.get("params")).set("_meta", McpOnDynamoDb.meta("2026-07-28", capabilities));
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("MCP-Protocol-Version", "2026-07-28");
        headers.put("Mcp-Method", method);
        JsonNode named = body.path("params").has("name") ? body.path("params").path("name") : body.path("params").path("uri");
        if (named.isTextual()) {
            headers.put("Mcp-Name", named.asText());
        }
        InMemoryResponseStream r = McpOnDynamoDb.post(endpoint, user, headers, Json.write(body));
        assertEquals(200, r.statusCode(), r.body());
        List<JsonNode> answers = messages(r);
        assertEquals(1, answers.size(), "one JSON answer, no stream: " + r.body());
        return answers.get(0);
    }

    private static InMemoryResponseStream post(String user, String session, String body) {
        return McpOnDynamoDb.post(endpoint, user, session == null ? Map.of() : Map.of("mcp-session-id", session), body);
    }

    /** The initialize answer, with the session id it carries as {@code session}. */
    private static JsonNode initializeAnswer(String user, String revision, String capabilities) {
        InMemoryResponseStream r = McpOnDynamoDb.initialize(endpoint, user, revision, capabilities);
        return ((com.fasterxml.jackson.databind.node.ObjectNode) messages(r).get(0)).put("session", McpOnDynamoDb.sessionId(r));
    }

    private static String sessionOf(JsonNode initialized) {
        return initialized.path("session").asText();
    }

    private static String initialize(String user, String revision, String capabilities) {
        return sessionOf(initializeAnswer(user, revision, capabilities));
    }

    private static String call(String tool, String arguments) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + (++ids) + ",\"method\":\"tools/call\",\"params\":{\"name\":\"" + tool
                + "\",\"arguments\":" + arguments + "}}";
    }

    private static JsonNode request(String user, String session, String method, String params) {
        List<JsonNode> answers = messages(post(user, session, "{\"jsonrpc\":\"2.0\",\"id\":" + (++ids) + ",\"method\":\"" + method
                + "\",\"params\":" + params + "}"));
        return answers.get(answers.size() - 1);
    }

    private static JsonNode callTool(String user, String session, String tool, String arguments) {
        List<JsonNode> answers = messages(post(user, session, call(tool, arguments)));
        return answers.get(answers.size() - 1).path("result");
    }

    private static List<JsonNode> messages(InMemoryResponseStream r) {
        return McpOnDynamoDb.messages(r.body());
    }

    private static List<String> names(JsonNode tools) {
        List<String> names = new ArrayList<>();
        tools.forEach(t -> names.add(t.path("name").asText()));
        return names;
    }

    private static JsonNode tool(JsonNode tools, String name) {
        for (JsonNode t : tools) {
            if (t.path("name").asText().equals(name)) {
                return t;
            }
        }
        throw new AssertionError("no tool " + name + " in " + tools);
    }

    private static int count(String text, String part) {
        int n = 0;
        for (int i = text.indexOf(part); i >= 0; i = text.indexOf(part, i + 1)) {
            n++;
        }
        return n;
    }
}
