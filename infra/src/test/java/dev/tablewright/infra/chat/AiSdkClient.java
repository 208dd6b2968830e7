package dev.tablewright.infra.chat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.infra.template.SamTemplate;
import dev.tablewright.json.Json;
import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The AI SDK's own stream reader ({@code ai} from npm, in infra/node-client) run on a chat turn's body: the honest
 * check that a useChat client reads our stream. Skips the calling test (with the reason) when node or npm is not
 * installed, or when {@code npm ci} cannot fetch the package.
 */
final class AiSdkClient {

    private static volatile Boolean installed;

    private AiSdkClient() {
    }

    static Path directory() {
        return SamTemplate.locate().getParent().resolve("infra/node-client");
    }

    /** Parses {@code body}; {@code continued} is the assistant message the stream continues (null: a new one). */
    static JsonNode read(String body, JsonNode continued) throws Exception {
        ensureInstalled();
        Path dir = directory();
        Path bodyFile = Files.createTempFile("ui-stream-", ".txt");
        Path messageFile = Files.createTempFile("ui-message-", ".json");
        try {
            Files.writeString(bodyFile, body, StandardCharsets.UTF_8);
            List<String> command = new ArrayList<>(List.of("node", "read-ui-stream.mjs", bodyFile.toString()));
            if (continued != null) {
                Files.writeString(messageFile, Json.write(continued), StandardCharsets.UTF_8);
                command.add(messageFile.toString());
            }
            Result r = run(dir, 60, command);
            if (r.exit != 0) {
                throw new AssertionError("the AI SDK rejected the stream (exit " + r.exit + "):\n" + r.stderr + "\nbody:\n" + body);
            }
            return Json.parse(r.stdout);
        } finally {
            Files.deleteIfExists(bodyFile);
            Files.deleteIfExists(messageFile);
        }
    }

    private static synchronized void ensureInstalled() throws Exception {
        if (installed != null) {
            Assumptions.assumeTrue(installed, "npm ci failed earlier: skipping the AI SDK client check");
            return;
        }
        installed = false;
        for (String tool : new String[]{"node", "npm"}) {
            Result version;
            try {
                version = run(directory(), 30, List.of(tool, "--version"));
            } catch (IOException e) {
                Assumptions.abort(tool + " is not installed: skipping the AI SDK client check (install Node.js 18+ to run it)");
                return;
            }
            Assumptions.assumeTrue(version.exit == 0, tool + " --version failed: skipping the AI SDK client check");
        }
        if (!Files.isDirectory(directory().resolve("node_modules/ai"))) {
            Result ci = run(directory(), 300, List.of("npm", "ci", "--no-audit", "--no-fund"));
            Assumptions.assumeTrue(ci.exit == 0, "npm ci failed in infra/node-client (no registry?): skipping the AI SDK client check\n" + ci.stderr);
        }
        installed = true;
    }

    private record Result(int exit, String stdout, String stderr) {
    }

    private static Result run(Path dir, int timeoutSeconds, List<String> command) throws Exception {
        Path out = Files.createTempFile("node-out-", ".txt");
        Path err = Files.createTempFile("node-err-", ".txt");
        try {
            Process p = new ProcessBuilder(command).directory(dir.toFile())
                    .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new AssertionError(String.join(" ", command) + " did not finish in " + timeoutSeconds + " s");
            }
            return new Result(p.exitValue(), Files.readString(out), Files.readString(err));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }
}
