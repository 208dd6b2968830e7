package dev.tablewright.systemtest.chat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.fakes.template.SamTemplate;
import dev.tablewright.json.Json;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The AI SDK's own stream reader ({@code ai} from npm, in infra/node-client) run on a chat turn's body: the honest
 * check that a useChat client reads our stream, and the message shapes {@code ai} 5.x to 7.x send back. Fails the
 * calling test (with the reason) when node or npm is not installed, or when {@code npm ci} cannot fetch the packages.
 */
final class AiSdkClient {

    private static final dev.tablewright.fakes.node.NodeProject NODE = new dev.tablewright.fakes.node.NodeProject(directory());

    private AiSdkClient() {
    }

    static Path directory() {
        return SamTemplate.locate().getParent().resolve("infra/node-client");
    }

    /** Parses {@code body}; {@code continued} is the assistant message the stream continues (null: a new one). */
    static JsonNode read(String body, JsonNode continued) throws Exception {
        Path bodyFile = Files.createTempFile("ui-stream-", ".txt");
        Path messageFile = Files.createTempFile("ui-message-", ".json");
        try {
            Files.writeString(bodyFile, body, StandardCharsets.UTF_8);
            List<String> command = new ArrayList<>(List.of("node", "read-ui-stream.mjs", bodyFile.toString()));
            if (continued != null) {
                Files.writeString(messageFile, Json.write(continued), StandardCharsets.UTF_8);
                command.add(messageFile.toString());
            }
            var r = NODE.run(60, command);
            if (r.exit() != 0) {
                throw new AssertionError("the AI SDK rejected the stream (exit " + r.exit() + "):\n" + r.stderr() + "\nbody:\n" + body);
            }
            return Json.parse(r.stdout());
        } finally {
            Files.deleteIfExists(bodyFile);
            Files.deleteIfExists(messageFile);
        }
    }

    /**
     * Reconnects to the running turn of {@code chatId} with the AI SDK 7 client's own
     * {@code DefaultChatTransport.reconnectToStream} ({@code reconnect-stream.mjs}), as {@code useChat({resume: true})}
     * does: {@code {"none": true}} when nothing runs (204), else {@code {"chunkTypes", "message"}}.
     */
    static JsonNode reconnect(String chatUrl, String chatId, String token) throws Exception {
        var r = NODE.run(120, List.of("node", "reconnect-stream.mjs", chatUrl, chatId, token));
        if (r.exit() != 0) {
            throw new AssertionError("reconnectToStream failed (exit " + r.exit() + "):\n" + r.stderr());
        }
        return Json.parse(r.stdout());
    }

    /**
     * The message shapes each installed {@code ai} version makes and accepts itself ({@code message-shapes.mjs}):
     * {@code {"versions": [{"package", "version", "accepted": [{"shape", "messages"}], "rejected": [...]}]}}.
     */
    static JsonNode messageShapes() throws Exception {
        var r = NODE.run(120, List.of("node", "message-shapes.mjs"));
        if (r.exit() != 0) {
            throw new AssertionError("message-shapes.mjs failed (exit " + r.exit() + "):\n" + r.stderr());
        }
        return Json.parse(r.stdout());
    }

    /**
     * A chat that keeps or drops its preview through the AI SDK's tool approval ({@code approval-chat.mjs}) with the
     * {@code ai} package {@code pkg}: {@code {"requested", "messages", "requests", "error"}}.
     */
    static JsonNode approvalChat(String pkg, String chatUrl, String token, String chatId, String text, String decision,
                                 String reason) throws Exception {
        List<String> command = new ArrayList<>(List.of("node", "approval-chat.mjs", pkg, chatUrl, token, chatId, text, decision));
        if (reason != null) {
            command.add(reason);
        }
        var r = NODE.run(180, command);
        if (r.exit() != 0) {
            throw new AssertionError("approval-chat.mjs failed (exit " + r.exit() + "):\n" + r.stderr());
        }
        return Json.parse(r.stdout());
    }

    /** AI SDK 7's own {@code signToolApproval} for the call, and its {@code verifyToolApprovalSignature} of {@code given}. */
    static JsonNode signApproval(String secret, String approvalId, String toolCallId, String toolName, JsonNode input,
                                 String given) throws Exception {
        List<String> command = new ArrayList<>(List.of("node", "sign-approval.mjs", secret, approvalId, toolCallId, toolName, Json.write(input)));
        if (given != null) {
            command.add(given);
        }
        var r = NODE.run(60, command);
        if (r.exit() != 0) {
            throw new AssertionError("sign-approval.mjs failed (exit " + r.exit() + "):\n" + r.stderr());
        }
        return Json.parse(r.stdout());
    }
}
