package dev.tablewright.systemtest.demo;

import dev.tablewright.localstack.demo.DemoRequest;
import dev.tablewright.localstack.demo.WorkingConfigSummary;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.localstack.chat.Terminal;
import dev.tablewright.localstack.chat.TerminalChat;
import dev.tablewright.fakes.identity.DevIssuer;
import dev.tablewright.localstack.local.LocalDeployment;
import dev.tablewright.localstack.local.LocalModel;
import dev.tablewright.json.Json;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The local stack as a newcomer starts it, without a model key: the offline demo model answers over HTTP, and the
 * terminal client (infra/bin/chat) holds the README's conversation on it — a table, a filter, a sort, each previewed
 * and accepted, each preview an update of the version the last accept saved — and an answer it does not understand
 * says what it is. The banner and the page's config.json name the model.
 */
class OfflineDemoChatTest {

    private static final ByteArrayOutputStream BANNER = new ByteArrayOutputStream();
    @AutoClose
    private static LocalDeployment stack;

    @BeforeAll
    static void start() throws Exception {
        Map<String, String> env = new HashMap<>(System.getenv());
        env.keySet().removeIf(k -> k.startsWith("OPENAI_") || k.equals("DATA_SOURCES")); // no key: the offline demo
        stack = LocalDeployment.start(new LocalDeployment.Settings(0, env, new PrintStream(BANNER, true, StandardCharsets.UTF_8)));
    }

    @Test
    void withoutAKeyTheBannerAndThePageConfigNameTheOfflineDemoModel() throws Exception {
        assertEquals(LocalModel.Kind.OFFLINE_DEMO, stack.model().kind());
        String banner = BANNER.toString(StandardCharsets.UTF_8);
        assertTrue(banner.contains("OFFLINE DEMO model") && banner.contains("not a language model"), banner);
        assertTrue(banner.contains("\"Only show quantities above 100\"") && banner.contains("OPENAI_API_KEY"), banner);
        HttpResponse<String> config = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(stack.url() + "/config.json"))
                .GET().build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, config.statusCode(), config.body());
        JsonNode model = Json.parse(config.body()).path("model");
        assertEquals("offline-demo", model.path("kind").asText(), config.body());
        assertTrue(model.path("label").asText().contains("offline demo model"), config.body());
    }

    @Test
    void theTerminalClientHoldsTheReadmeConversationBuildFilterSortEachAcceptedAsTheNextVersion() throws Exception {
        String token = stack.issuer().mint(DevIssuer.DEV_USER);
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        BufferedReader typed = new BufferedReader(new StringReader(String.join("\n",
                "Show stock levels with their warehouse name", "a",
                "Only show quantities above 100", "a",
                "Sort by quantity descending", "a",
                "What is the weather in Berlin?",
                "/quit") + "\n"));
        TerminalChat chat = new TerminalChat(new TerminalChat.Options(stack.url(), stack.chatUrl(), token, "tables", null,
                "conv-demo-" + System.nanoTime()), Terminal.streams(typed, new PrintStream(printed, true, StandardCharsets.UTF_8)));
        chat.run();
        String out = printed.toString(StandardCharsets.UTF_8);

        assertFalse(out.contains("  ! "), out);
        assertTrue(out.contains("model: offline demo model"), out);
        // turn 1: the table, from a schema search, its columns and a join
        assertTrue(out.contains("assistant> Let me look up the stock levels table."), out);
        for (String step : List.of("✓ search_database_schema", "✓ apply_column_change", "✓ apply_join_change: join core.warehouses added",
                "✓ preview_table_config")) {
            assertTrue(out.contains(step), step + " in:\n" + out);
        }
        assertTrue(out.contains("Preview: Stock levels with their warehouse name  [new table config]"), out);
        assertTrue(out.contains("Berlin Central"), "the preview's sample rows:\n" + out);
        Matcher accepted = Pattern.compile("accepted: config (\\S+) is now at version (\\d+)").matcher(out);
        List<String> versions = new ArrayList<>();
        String configId = null;
        while (accepted.find()) {
            configId = accepted.group(1);
            versions.add(accepted.group(2));
        }
        assertEquals(List.of("1", "2", "3"), versions, out);
        // turn 2 and 3: each an update of the version the accept before it saved
        assertTrue(out.contains("Here is the preview, an update of version 1: only rows with quantity above 100"), out);
        assertTrue(out.contains("Preview: Only rows with quantity above 100  [update of " + configId + "]"), out);
        assertTrue(out.contains("Here is the preview, an update of version 2: sorted by quantity, descending"), out);
        assertTrue(out.contains("Preview: Sorted by quantity, descending  [update of " + configId + "]"), out);
        // turn 4: not understood, said plainly
        assertTrue(out.contains("assistant> I did not understand that. I am the offline demo model"), out);

        HttpResponse<String> saved = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(stack.url() + "/configs/" + configId))
                .header("authorization", "Bearer " + token).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, saved.statusCode(), saved.body());
        JsonNode config = Json.parse(saved.body());
        assertEquals(3, config.path("version").asInt(), saved.body());
        JsonNode source = config.path("config").path("data_source").path(0);
        List<String> columns = new ArrayList<>();
        source.path("select").path("columns").forEach(c -> columns.add(c.path("name").asText()));
        assertEquals(List.of("item_id", "quantity", "reorder_level", "name"), columns, saved.body());
        assertEquals("quantity", source.path("filters").path(0).path("column").asText(), saved.body());
        assertEquals("gt", source.path("filters").path(0).path("operator").asText(), saved.body());
        assertEquals("desc", source.path("sort").path(0).path("direction").asText(), saved.body());

        // the third turn was decided from its own message and the saved config in the system prompt
        var requests = stack.model().localServer().requests();
        var sortTurn = requests.stream().filter(r -> DemoRequest.of(r).lastUserMessage().equals("Sort by quantity descending")).findFirst().orElseThrow();
        WorkingConfigSummary state = WorkingConfigSummary.fromSystemPrompt(sortTurn.systemPrompt());
        assertEquals(configId, state.configId());
        assertTrue(state.filters().contains("quantity gt 100"), state.filters());
    }
}
