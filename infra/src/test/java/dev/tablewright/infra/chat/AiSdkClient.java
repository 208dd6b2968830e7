package dev.tablewright.infra.chat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.infra.template.SamTemplate;
import dev.tablewright.json.Json;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The AI SDK's own stream reader ({@code ai} from npm, in infra/node-client) run on a chat turn's body: the honest
 * check that a useChat client reads our stream, and the message shapes {@code ai} 5.x to 7.x send back. Fails the
 * calling test (with the reason) when node or npm is not installed, or when {@code npm ci} cannot fetch the packages.
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

    /**
     * The message shapes each installed {@code ai} version makes and accepts itself ({@code message-shapes.mjs}):
     * {@code {"versions": [{"package", "version", "accepted": [{"shape", "messages"}], "rejected": [...]}]}}.
     */
    static JsonNode messageShapes() throws Exception {
        ensureInstalled();
        Result r = run(directory(), 120, List.of("node", "message-shapes.mjs"));
        if (r.exit != 0) {
            throw new AssertionError("message-shapes.mjs failed (exit " + r.exit + "):\n" + r.stderr);
        }
        return Json.parse(r.stdout);
    }

    /**
     * Node and the pinned {@code ai} packages ({@code npm ci}). Missing Node or an unreachable registry fails the
     * calling test with the reason: the check that real AI SDK clients work must not pass by not running (CI has Node).
     */
    private static synchronized void ensureInstalled() throws Exception {
        if (installed != null) {
            if (!installed) {
                throw new AssertionError("the AI SDK packages could not be installed earlier (see the first failure)");
            }
            return;
        }
        installed = false;
        for (String tool : new String[]{"node", "npm"}) {
            Result version;
            try {
                version = run(directory(), 30, List.of(tool, "--version"));
            } catch (IOException e) {
                throw new AssertionError(tool + " is not installed: the AI SDK client checks need Node.js 20+ and npm", e);
            }
            if (version.exit != 0) {
                throw new AssertionError(tool + " --version failed:\n" + version.stderr);
            }
        }
        Path lock = directory().resolve("package-lock.json");
        Path marker = directory().resolve("node_modules/.package-lock.json");
        if (!Files.exists(marker) || Files.getLastModifiedTime(marker).compareTo(Files.getLastModifiedTime(lock)) < 0
                || !Files.isDirectory(directory().resolve("node_modules/ai5"))) {
            Result ci = run(directory(), 300, List.of("npm", "ci", "--no-audit", "--no-fund"));
            if (ci.exit != 0) {
                throw new AssertionError("npm ci failed in infra/node-client (is the npm registry reachable?):\n" + ci.stderr);
            }
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
