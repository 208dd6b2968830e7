package dev.tablewright.systemtest.agui;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.fakes.node.NodeProject;
import dev.tablewright.fakes.template.SamTemplate;
import dev.tablewright.json.Json;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The official AG-UI packages ({@code @ag-ui/core} and {@code @ag-ui/client} 1.0, infra/agui-client) on the door's
 * streams: {@link #validate} checks a recorded stream with the schemas and the client's ordering rules, {@link #run}
 * drives the door with {@code HttpAgent}. Fails (never skips) without Node.
 */
final class AgUiClient {

    static final NodeProject NODE = new NodeProject(SamTemplate.locate().getParent().resolve("infra/agui-client"));

    private AgUiClient() {
    }

    /** {@code {types, events, invalid, states, verifyError}} of an SSE body. */
    static JsonNode validate(String body) throws Exception {
        Path file = Files.createTempFile("agui-", ".sse");
        try {
            Files.writeString(file, body, StandardCharsets.UTF_8);
            return node(List.of("node", "agui-client-check.mjs", "validate", file.toString()));
        } finally {
            Files.deleteIfExists(file);
        }
    }

    /** {@code {runs: [{types, events, invalid, states, error, messages, state}]}}: HttpAgent through the scenario's steps. */
    static JsonNode run(String url, String token, JsonNode scenario) throws Exception {
        Path file = Files.createTempFile("agui-scenario-", ".json");
        try {
            Files.writeString(file, Json.write(scenario), StandardCharsets.UTF_8);
            return node(List.of("node", "agui-client-check.mjs", "run", url, token, file.toString()));
        } finally {
            Files.deleteIfExists(file);
        }
    }

    private static JsonNode node(List<String> command) throws Exception {
        NodeProject.Result r = NODE.run(180, command);
        if (r.exit() != 0) {
            throw new AssertionError("agui-client-check.mjs failed (exit " + r.exit() + "):\n" + r.stderr() + "\n" + r.stdout());
        }
        return Json.parse(r.stdout());
    }
}
