package dev.tablewright.systemtest.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.fakes.identity.DevIssuer;
import dev.tablewright.fakes.model.ModelScript;
import dev.tablewright.fakes.node.NodeProject;
import dev.tablewright.fakes.sampledb.SampleDatabase;
import dev.tablewright.fakes.template.SamTemplate;
import dev.tablewright.json.Json;
import dev.tablewright.localstack.local.LocalDeployment;
import dev.tablewright.mcp.McpApps;
import dev.tablewright.postgres.DatabaseUrl;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The preview as an MCP App in a real Chromium, hosted by the official host bridge: infra/mcp-app-host's
 * {@code mcp-app-check.mjs} plays the host (the {@code AppBridge} of {@code @modelcontextprotocol/ext-apps} over
 * {@code PostMessageTransport}, an MCP client of {@code @modelcontextprotocol/client} declaring the extension) against
 * the local stack's {@code /mcp}: tools/list, resources/read of the tool's {@code ui://} resource, an iframe from
 * {@code srcdoc} with {@code sandbox="allow-scripts"} under the CSP the resource declares, the handshake, the tool's
 * input and result; the view shows the headers and sample rows; Keep saves exactly one version and says so, Discard
 * rejects, each tells the model; a view given no result waits visibly; hostile cells stay text. This class checks
 * the server's side of each (the config's versions, the preview's status over the HTTP API).
 *
 * <p>Needs Node.js 20+ with npm and Chromium ({@code CHROMIUM}, default /usr/bin/chromium): without them it fails,
 * never skips. Screenshots go to {@code infra/system-tests/target/mcp-app}; {@code -Dscreenshots=docs/screenshots}
 * refreshes the documented ones.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class McpAppBrowserTest {

    private static final Path ROOT = SamTemplate.locate().getParent();
    private static final NodeProject HOST = new NodeProject(ROOT.resolve("infra/mcp-app-host"));
    @AutoClose
    private static LocalDeployment stack;
    private static String token;
    /** The config the Keep flow saved, which the Discard flow previews an update of. */
    private static String keptConfigId;

    @BeforeAll
    static void start() throws Exception {
        Path chromium = Path.of(System.getenv().getOrDefault("CHROMIUM", "/usr/bin/chromium"));
        assertTrue(Files.isExecutable(chromium), "this test needs Chromium at " + chromium
                + " (apt-get install -y chromium, or set CHROMIUM to its path)");
        HOST.ensureInstalled();
        // the sample, plus a table whose cells are markup a careless view would run
        DatabaseUrl production = SampleDatabase.ensureLoaded();
        DatabaseUrl own = SampleDatabase.dedicated(production, "tablewright_mcp_app_test");
        try (Connection c = own.connect(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS sales.customer_notes (id integer PRIMARY KEY, note text)");
            s.execute("DELETE FROM sales.customer_notes");
            s.execute("""
                    INSERT INTO sales.customer_notes VALUES
                      (1, '<img src=x onerror="parent.postMessage(''pwned'',''*'')">'),
                      (2, '</script><script>parent.postMessage(''pwned'',''*'')</script>'),
                      (3, 'Call back on Monday')""");
        }
        ObjectNode sources = Json.object();
        sources.putObject("production").put("url", own.jdbcUrlWithCredentials());
        stack = LocalDeployment.start(LocalDeployment.Settings.forTest(Map.of("DATA_SOURCES", Json.write(sources)),
                ModelScript.builder().build()));
        token = stack.issuer().mint(DevIssuer.DEV_USER);
    }

    @Test
    @Order(1)
    void keepSavesExactlyOneVersionAndTheViewSaysSo() throws Exception {
        JsonNode report = flow("keep", Map.of());
        assertTrue(report.path("serverCapabilities").has("resources"), report.path("serverCapabilities").toString());
        JsonNode tools = report.path("tools");
        assertEquals(McpApps.PREVIEW_URI, tool(tools, "preview_table_config").path("ui").path("resourceUri").asText(), tools.toString());
        for (String appOnly : List.of("keep_preview", "discard_preview")) {
            assertEquals("[\"app\"]", tool(tools, appOnly).path("ui").path("visibility").toString(), appOnly + ": " + tools);
        }
        assertTrue(tool(tools, "accept_preview").path("ui").isNull(), "accept_preview is the model's, as before: " + tools);

        JsonNode shown = report.path("shown");
        assertEquals(McpApps.MIME_TYPE, shown.path("mimeType").asText(), shown.toString());
        assertEquals("allow-scripts", shown.path("sandbox").asText(), shown.toString());
        for (String domains : List.of("connectDomains", "resourceDomains", "frameDomains", "baseUriDomains")) {
            assertEquals("[]", shown.path("csp").path(domains).toString(), "no outside domain: " + shown.path("csp"));
        }
        JsonNode result = shown.path("result");
        assertFalse(result.path("isError").asBoolean(), result.toString());
        String previewId = result.path("structuredContent").path("previewId").asText();
        assertTrue(result.path("text").asText().contains("\"previewId\":\"" + previewId + "\""),
                "the model-visible text result is still there: " + result.path("text"));
        assertEquals("{\"externalScripts\":0,\"stylesheets\":0,\"images\":0}", report.path("frameResources").toString());

        List<String> events = new ArrayList<>();
        report.path("events").forEach(e -> events.add(e.path("what").asText()));
        assertEquals(List.of("initialized", "tool-input", "tool-result", "view-call"), events, "the handshake comes first");
        assertEquals(1, report.path("viewCalls").size(), "one click, one call, a second click sends nothing: " + report.path("viewCalls"));
        assertEquals("keep_preview", report.path("viewCalls").path(0).path("name").asText());
        assertEquals(previewId, report.path("viewCalls").path(0).path("arguments").path("previewId").asText());
        assertTrue(report.path("refusedCalls").isEmpty(), report.path("refusedCalls").toString());
        JsonNode told = report.path("modelContext").path(0);
        assertEquals("kept", told.path("structuredContent").path("decision").asText(), told.toString());
        assertTrue(told.path("content").path(0).path("text").asText().contains("saved as version 1"), told.toString());

        keptConfigId = told.path("structuredContent").path("configId").asText();
        assertEquals("accepted", api("GET", "/previews/" + previewId).path("status").asText());
        JsonNode versions = api("GET", "/configs/" + keptConfigId + "/versions").path("versions");
        assertEquals(1, versions.size(), "exactly one version: " + versions);
        assertEquals("Stock levels by warehouse", api("GET", "/configs/" + keptConfigId).path("name").asText());
    }

    @Test
    @Order(2)
    void discardRejectsTheUpdateAndTellsTheModelByMessage() throws Exception {
        assertTrue(keptConfigId != null, "the keep flow ran first");
        JsonNode report = flow("discard", Map.of("CONFIG_ID", keptConfigId));
        assertEquals("dark", report.path("theme").asText(), "the host's theme: " + report);
        String previewId = report.path("shown").path("result").path("structuredContent").path("previewId").asText();
        assertEquals(1, report.path("viewCalls").size(), report.path("viewCalls").toString());
        assertEquals("discard_preview", report.path("viewCalls").path(0).path("name").asText());
        // this host takes ui/message, not ui/update-model-context: the view tells the model with a message
        assertTrue(report.path("modelContext").isEmpty(), report.toString());
        JsonNode message = report.path("messages").path(0);
        assertEquals("user", message.path("role").asText(), message.toString());
        assertTrue(message.path("content").path(0).path("text").asText().contains("nothing was saved"), message.toString());

        assertEquals("rejected", api("GET", "/previews/" + previewId).path("status").asText());
        assertEquals(1, api("GET", "/configs/" + keptConfigId + "/versions").path("versions").size(), "still one version");
    }

    @Test
    @Order(3)
    void aViewThatIsGivenNoResultShowsThatItIsWaiting() throws Exception {
        JsonNode report = flow("waiting", Map.of());
        List<String> events = new ArrayList<>();
        report.path("events").forEach(e -> events.add(e.path("what").asText()));
        assertEquals(List.of("initialized"), events, "the handshake completed, no result sent");
    }

    @Test
    @Order(4)
    void markupInCellsAndHeadersIsShownAsTextAndRunsNothing() throws Exception {
        JsonNode report = flow("hostile", Map.of());
        assertTrue(report.path("hostile").isEmpty(), "no cell ran: " + report.path("hostile"));
        assertEquals(0, report.path("frameResources").path("images").asInt(), report.toString());
        assertEquals(1, report.path("frameResources").path("scripts").asInt(), "the view's own script only: " + report);
    }

    @Test
    @Order(5)
    void onA2026ClientWithNoSessionKeepSavesExactlyOneVersionToo() throws Exception {
        // the official client pinned to 2026-07-28: the extension travels in every request's _meta, the Keep the host
        // forwards for the view included. Another user: the first flow's user already has a config of this name.
        String user2026 = stack.issuer().mint("mcp-app-2026-user");
        JsonNode report = flow("keep-2026", Map.of(), user2026);
        assertEquals("2026-07-28", report.path("protocolVersion").asText(), report.toString());
        assertTrue(report.path("serverCapabilities").has("resources"), report.path("serverCapabilities").toString());
        JsonNode tools = report.path("tools");
        assertEquals(McpApps.PREVIEW_URI, tool(tools, "preview_table_config").path("ui").path("resourceUri").asText(), tools.toString());
        assertEquals("[\"app\"]", tool(tools, "keep_preview").path("ui").path("visibility").toString(), tools.toString());
        assertEquals(McpApps.MIME_TYPE, report.path("shown").path("mimeType").asText(), report.path("shown").toString());
        String previewId = report.path("shown").path("result").path("structuredContent").path("previewId").asText();
        assertEquals(1, report.path("viewCalls").size(), report.path("viewCalls").toString());
        assertEquals("keep_preview", report.path("viewCalls").path(0).path("name").asText());
        assertTrue(report.path("refusedCalls").isEmpty(), report.path("refusedCalls").toString());
        JsonNode told = report.path("modelContext").path(0);
        assertTrue(told.path("content").path(0).path("text").asText().contains("saved as version 1"), told.toString());
        String configId = told.path("structuredContent").path("configId").asText();
        assertEquals("accepted", api("GET", "/previews/" + previewId, user2026).path("status").asText());
        assertEquals(1, api("GET", "/configs/" + configId + "/versions", user2026).path("versions").size(), "exactly one version");
    }

    private static JsonNode tool(JsonNode tools, String name) {
        for (JsonNode t : tools) {
            if (t.path("name").asText().equals(name)) {
                return t;
            }
        }
        throw new AssertionError("tools/list has no " + name + ": " + tools);
    }

    private static JsonNode api(String method, String path) throws Exception {
        return api(method, path, token);
    }

    private static JsonNode api(String method, String path, String bearer) throws Exception {
        HttpResponse<String> r = stack.call(method, path, bearer, null);
        assertEquals(200, r.statusCode(), method + " " + path + ": " + r.body());
        return Json.parse(r.body());
    }

    /** Runs one flow of mcp-app-check.mjs; its report, once the flow passed with no problem. */
    private static JsonNode flow(String flow, Map<String, String> env) throws Exception {
        return flow(flow, env, token);
    }

    private static JsonNode flow(String flow, Map<String, String> env, String bearer) throws Exception {
        // the documented screenshots are the 2025 session's; the 2026 run's look the same and stay in target
        Path shots = ROOT.resolve(flow.endsWith("-2026") ? "infra/system-tests/target/mcp-app"
                : System.getProperty("screenshots", "infra/system-tests/target/mcp-app"));
        List<String> command = new ArrayList<>(List.of("env", "MCP_TOKEN=" + bearer));
        env.forEach((k, v) -> command.add(k + "=" + v));
        command.addAll(List.of("node", "mcp-app-check.mjs", flow, stack.url(), shots.toString()));
        NodeProject.Result run = HOST.run(180, command);
        String last = run.stdout().lines().reduce((a, b) -> b).orElse("");
        assertEquals(0, run.exit(), "the " + flow + " flow failed (screenshots in " + shots + "):\n" + last + "\n" + run.stderr());
        JsonNode out = Json.parse(last);
        assertTrue(out.path("problems").isEmpty(), out.toString());
        assertTrue(out.path("failure").isNull(), out.toString());
        return out.path("report");
    }
}
