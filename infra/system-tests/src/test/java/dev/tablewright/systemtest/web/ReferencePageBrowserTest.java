package dev.tablewright.systemtest.web;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.localstack.local.LocalModel;
import dev.tablewright.localstack.local.LocalDeployment;
import dev.tablewright.fakes.model.ModelScript;
import dev.tablewright.fakes.node.NodeProject;
import dev.tablewright.fakes.sampledb.SampleDatabase;
import dev.tablewright.fakes.template.SamTemplate;
import dev.tablewright.json.Json;
import dev.tablewright.postgres.DatabaseUrl;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The reference page (infra/web) in a real Chromium against the local stack started here with a scripted model:
 * the README's conversation streams, its preview shows sample rows and the builder pending columns, Accept saves
 * version 1, a reload keeps the conversation, the page's client tool runs and the turn goes on by itself, an update
 * shows its diff and the column it removes as pending, the conversation list renames, reopens and deletes; with two
 * data sources the input form asks for the database, and Submit continues the turn; without a script, the offline
 * demo model holds the README's conversation (build, filter, sort, accepted between) under its note; a reload in
 * the middle of an answer resumes it to its end, and Stop ends another one (stored, marked stopped). The browser part is
 * {@code infra/web/test/reference-page.mjs} (playwright-core); it fails on any console error or failed request.
 *
 * <p>Needs Node.js 20+ with npm and Chromium ({@code CHROMIUM}, default /usr/bin/chromium): without them this test
 * fails, it never skips. Screenshots go to {@code infra/system-tests/target/reference-page}; {@code -Dscreenshots=docs/screenshots}
 * refreshes the documented ones.
 */
class ReferencePageBrowserTest {

    private static final Path ROOT = SamTemplate.locate().getParent();
    private static final NodeProject WEB = new NodeProject(ROOT.resolve("infra/web"));

    @BeforeAll
    static void buildThePage() throws Exception {
        Path chromium = Path.of(System.getenv().getOrDefault("CHROMIUM", "/usr/bin/chromium"));
        assertTrue(Files.isExecutable(chromium), "this test needs Chromium at " + chromium
                + " (apt-get install -y chromium, or set CHROMIUM to its path)");
        NodeProject.Result build = WEB.run(300, List.of("npm", "run", "build"));
        assertEquals(0, build.exit(), "npm run build failed in infra/web:\n" + build.stdout() + build.stderr());
    }

    @Test
    void theReadmeConversationBuildsAPreviewThatIsAcceptedAndSurvivesAReload() throws Exception {
        ModelScript script = ModelScript.builder()
                .turn(t -> t.text("Let me check the columns.").delay(1500)
                        .toolCall("call_highlight", "highlight_column", "{\"column\": \"quantity\"}"))
                .say("I highlighted the Quantity column.")
                .turn(t -> t.toolCall("call_remove", "apply_column_change",
                        "{\"operation\": \"remove\", \"columns\": [{\"name\": \"item_id\"}]}"))
                .turn(t -> t.toolCall("call_preview_update", "preview_table_config", "{\"description\": \"Stock levels without the item\"}"))
                .say("Here is the update: the item column goes.")
                .say("Saved: version 2.") // Accept answers the update's approval, and the same message goes on
                .build();
        // Accept answers the tool approval of the call that keeps the preview (signed), and the model goes on
        runFlow("builder", Map.of("TOOL_APPROVAL_SECRET", "reference-page-secret"), LocalModel.exampleConversation(),
                ModelScript.builder().say("Saved: version 1.").build(), script);
    }

    @Test
    void aRejectedPreviewIsMarkedRejectedAndAnUnrepairableChangeShowsTheValidationErrorsCard() throws Exception {
        String invalid = "{\"operation\":\"add\",\"filter\":{\"column\":\"quantity\",\"operator\":\"contains\",\"value\":\"5\"}}";
        ModelScript unrepairable = ModelScript.builder()
                .turn(t -> t.toolCall("call_1", "apply_filter_change", invalid))
                .turn(t -> t.toolCall("call_2", "apply_filter_change", invalid))
                .turn(t -> t.toolCall("call_3", "apply_filter_change", invalid))
                .build();
        // Reject denies the approval of the call that keeps the preview, and the model goes on knowing it
        runFlow("refusals", Map.of(), LocalModel.exampleConversation(),
                ModelScript.builder().say("Understood: nothing was saved.").build(), unrepairable);
    }

    @Test
    void withTwoDataSourcesTheInputFormAsksForTheDatabaseAndSubmitContinuesTheTurn() throws Exception {
        DatabaseUrl production = SampleDatabase.ensureLoaded();
        DatabaseUrl staging = SampleDatabase.dedicated(production, "tablewright_staging_page_test");
        try (Connection c = staging.connect(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS sales.returns (id integer PRIMARY KEY, order_id integer, amount numeric(10,2))");
        }
        ObjectNode sources = Json.object();
        sources.putObject("production").put("url", production.jdbcUrlWithCredentials());
        sources.putObject("staging").put("url", staging.jdbcUrlWithCredentials());
        runFlow("input", Map.of("DATA_SOURCES", Json.write(sources)), ModelScript.builder()
                .turn(t -> t.toolCall("call_search", "search_database_schema", "{\"query\": \"returns\"}"))
                .say("Staging has the returns table.")
                .build());
    }

    @Test
    void theOfflineDemoModelHoldsTheReadmeConversationBuildFilterAndSortWithAnAcceptBetween() throws Exception {
        // no script and no OPENAI_* variables: the local stack's offline demo model, as a newcomer without a key gets it
        try (LocalDeployment stack = LocalDeployment.start(LocalDeployment.Settings.forTest(Map.of(), null))) {
            drive("demo", stack);
        }
    }

    @Test
    void aReloadInTheMiddleOfAnAnswerResumesItToItsEndAndStopEndsAnother() throws Exception {
        runFlow("resume", Map.of(), slowAnswer("wh", 40, 100), slowAnswer("more", 60, 150));
    }

    /** An answer of {@code words} words, {@code word0 word1 …}, one delta each, {@code pauseMs} apart. */
    private static ModelScript slowAnswer(String word, int words, long pauseMs) {
        return ModelScript.builder().turn(t -> {
            for (int i = 0; i < words; i++) {
                t.delay(pauseMs).text(word + i + " ");
            }
        }).build();
    }

    /** Runs a flow of reference-page.mjs against a local stack whose scripted model plays these scripts, in order. */
    @Test
    void aSecretAnMcpClientSendsItsUserForIsAnsweredOnThePage() throws Exception {
        try (LocalDeployment stack = LocalDeployment.start(LocalDeployment.Settings.forTest(Map.of(), ModelScript.builder().build()))) {
            String token = stack.issuer().mint(dev.tablewright.fakes.identity.DevIssuer.DEV_USER);
            String conversation = "mcp-page-test";
            String asked = "mcp_0000000000000000_page";
            java.net.http.HttpResponse<String> created = stack.call("POST", "/conversations/" + conversation + "/input-requests", token, """
                    {"toolName": "search_database_schema", "toolCallId": "%s", "reason": "The database's password",
                     "fields": [{"name": "password", "label": "Database password", "type": "secret", "required": true}]}""".formatted(asked));
            assertEquals(201, created.statusCode(), created.body());
            drive("secret", stack, stack.url() + "/?conversation=" + conversation + "&inputRequest=" + asked);
            JsonNode answered = Json.parse(stack.call("GET", "/conversations/" + conversation + "/input-requests/" + asked, token, null).body())
                    .path("request");
            assertEquals("completed", answered.path("status").asText(), answered.toString());
            assertTrue(!answered.toString().contains("correct horse"), "the secret is never shown back: " + answered);
        }
    }

    private static void runFlow(String flow, Map<String, String> settings, ModelScript... scripts) throws Exception {
        try (LocalDeployment stack = LocalDeployment.start(LocalDeployment.Settings.forTest(settings, ModelScript.builder().build()))) {
            for (ModelScript script : scripts) {
                stack.model().scriptedServer().enqueue(script);
            }
            drive(flow, stack);
        }
    }

    private static void drive(String flow, LocalDeployment stack) throws Exception {
        drive(flow, stack, stack.url() + "/");
    }

    private static void drive(String flow, LocalDeployment stack, String pageUrl) throws Exception {
        Path shots = ROOT.resolve(System.getProperty("screenshots", "infra/system-tests/target/reference-page"));
        NodeProject.Result run = WEB.run(300, List.of("node", "test/reference-page.mjs", flow, pageUrl, shots.toString()));
        String report = run.stdout().lines().reduce((a, b) -> b).orElse("");
        assertEquals(0, run.exit(), "the " + flow + " flow failed (screenshots in " + shots + "):\n" + report + "\n" + run.stderr());
        JsonNode result = Json.parse(report);
        assertTrue(result.path("problems").isEmpty(), result.toString());
        assertTrue(result.path("failure").isNull(), result.toString());
    }
}
