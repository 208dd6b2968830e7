package dev.tablewright.localstack.invoke;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.fakes.template.SamTemplate;
import dev.tablewright.json.Json;
import dev.tablewright.lambda.Env;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The README's "Try a tool" command, and every sample event of infra/events against its function of template.yaml. */
class SampleEventsTest {

    static final Path ROOT = SamTemplate.locate().getParent();

    @AfterEach
    void clearEnv() {
        Env.clearOverrides();
    }

    @Test
    void theReadmeCommandAddsTwoColumnsToTheSampleConfig() throws Exception {
        String readme = Files.readString(ROOT.resolve("README.md"));
        String command = "infra/bin/invoke ApplyColumnChangeFunction --event infra/events/apply-column-change.json";
        assertTrue(readme.contains(command), "README shows: " + command);

        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = InvokeCommand.run(new String[]{"ApplyColumnChangeFunction", "--event",
                        ROOT.resolve("infra/events/apply-column-change.json").toString(), "--template", ROOT.resolve("template.yaml").toString()},
                new ByteArrayInputStream(new byte[0]), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(0, status, err.toString(StandardCharsets.UTF_8));
        JsonNode answer = Json.parse(out.toString(StandardCharsets.UTF_8));
        assertEquals("ok", answer.path("status").asText(), answer::toString);
        JsonNode output = answer.path("output");
        assertTrue(output.path("valid").asBoolean(), output::toString);
        JsonNode columns = output.at("/config/visual_settings/columns");
        assertEquals("datetime", columns.at("/approved_at/type").asText());
        assertTrue(columns.has("approver_last_name"));
        assertEquals(2, output.path("applied").size());
        assertEquals("kept by the client: unknown fields survive every tool", output.at("/config/owner_note").asText());
    }

    /** The pure tools (functions/tools) need nothing running; other modules' events are exercised by their own suites. */
    @Test
    void everyOperationToolSampleEventAnswersOk() throws Exception {
        SamTemplate template = SamTemplate.load(ROOT.resolve("template.yaml"));
        List<String> problems = new ArrayList<>();
        List<Path> events;
        try (Stream<Path> files = Files.list(ROOT.resolve("infra/events"))) {
            events = files.filter(p -> p.toString().endsWith(".json")).sorted().toList();
        }
        int checked = 0;
        for (Path event : events) {
            String id = logicalId(event);
            if (!template.resourcesOfType("AWS::Serverless::Function").containsKey(id)) {
                problems.add(event.getFileName() + ": no function " + id);
                continue;
            }
            if (!template.handler(id).startsWith("dev.tablewright.functions.tools.")) {
                continue;
            }
            checked++;
            InvokeCommand.Result result = InvokeCommand.invoke(template, id, Files.readAllBytes(event), System.err);
            if (!result.succeeded()) {
                problems.add(id + " failed: " + result.failure());
                continue;
            }
            JsonNode answer = Json.parse(new String(result.response(), StandardCharsets.UTF_8));
            if (!"ok".equals(answer.path("status").asText()) || answer.at("/output/valid").asBoolean(true) == false) {
                problems.add(id + " answered " + answer);
            }
        }
        assertEquals(List.of(), problems);
        assertTrue(checked >= 6, "a sample event per operation tool, found " + checked);
    }

    /** apply-column-change.json → ApplyColumnChangeFunction */
    static String logicalId(Path event) {
        String base = event.getFileName().toString().replace(".json", "");
        StringBuilder id = new StringBuilder();
        for (String part : base.split("-")) {
            id.append(Character.toUpperCase(part.charAt(0))).append(part.substring(1));
        }
        return id.append("Function").toString();
    }
}
