package dev.tablewright.eval;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.json.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The whole path, as {@code infra/bin/eval} runs it with no model configured: the offline demo model (the local
 * stack's choice without a key) does the corpus tasks written in its phrasings, on both deployments (one data source,
 * and two for the staging task), two runs at a time, and every one passes: the chat, the tools, the previews accepted,
 * the saved config compiled and compared with its golden query.
 */
class OfflineDemoSmokeTest {

    @TempDir
    Path out;

    @Test
    void theOfflineDemoModelPassesEveryTaskWrittenInItsPhrasings() throws Exception {
        Map<String, String> env = new HashMap<>(System.getenv());
        env.keySet().removeIf(k -> k.startsWith("OPENAI_") || k.startsWith("BEDROCK_") || k.equals("MODEL_PROVIDER") || k.equals("DATA_SOURCES"));
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        PrintStream stdout = new PrintStream(printed, true, StandardCharsets.UTF_8);

        // no --tag: with the offline demo model the command picks the demo tasks itself
        int code = new EvalCommand(stdout, stdout, Path.of("")).run(new String[]{"--out", out.toString(),
                "--concurrency", "2", "--min-pass-rate", "1"}, env, null);

        String said = printed.toString(StandardCharsets.UTF_8);
        assertEquals(EvalCommand.OK, code, said);
        assertTrue(said.contains("running the") && said.contains("tagged demo"), said);
        JsonNode report = Json.parse(Files.readString(out.resolve("report.json")));
        List<String> demoTasks = new ArrayList<>();
        TaskFile.corpus().stream().filter(t -> t.tagged(EvalTask.DEMO)).forEach(t -> demoTasks.add(t.id()));
        List<String> reported = new ArrayList<>();
        report.path("tasks").forEach(t -> reported.add(t.path("id").asText()));
        assertEquals(demoTasks, reported);
        assertEquals("offline-demo", report.path("model").path("kind").asText());
        assertEquals(1.0, report.path("overall").path("passAt1").asDouble(), said);
        assertTrue(Files.readString(out.resolve("report.md")).contains("| pass@1 | 1.00"), "the Markdown summary is beside it");
    }
}
