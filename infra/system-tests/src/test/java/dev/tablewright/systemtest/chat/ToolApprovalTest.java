package dev.tablewright.systemtest.chat;

import dev.tablewright.fakes.concurrent.Poll;
import dev.tablewright.fakes.configs.SampleConfigs;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.fakes.identity.DevIssuer;
import dev.tablewright.fakes.model.ModelScript;
import dev.tablewright.fakes.model.RecordedRequest;
import dev.tablewright.json.Json;
import dev.tablewright.localstack.local.LocalDeployment;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Keeping or dropping a preview through the AI SDK's own tool approval, against the local stack (DynamoDB Local, the
 * sample database, the scripted model, HTTP) with {@code TOOL_APPROVAL_SECRET} set: real {@code ai} 6.0.x and 7.0.x
 * clients ({@code AbstractChat}, {@code DefaultChatTransport} with {@code body: {toolApprovals: true}},
 * {@code addToolApprovalResponse}, {@code lastAssistantMessageIsCompleteWithApprovalResponses}) approve one preview
 * (saved at version 1, one assistant message) and deny another (rejected, nothing saved); the signature is the one AI
 * SDK 7's own signing function computes; forged, altered, foreign, stale and duplicated answers change nothing and
 * say why in a 200 stream; a client without the flag sees today's stream.
 */
class ToolApprovalTest {

    static final String SECRET = "tool-approval-test-secret-\u00e9";
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    @AutoClose
    private static LocalDeployment stack;
    private static String token;

    @BeforeAll
    static void start() throws Exception {
        stack = LocalDeployment.start(LocalDeployment.Settings.forTest(Map.of("TOOL_APPROVAL_SECRET", SECRET),
                ModelScript.builder().build()));
        token = stack.issuer().mint(DevIssuer.DEV_USER);
    }

    /** A turn that builds and previews a new config, then, when the answer comes, {@code afterAnswer}. */
    static ModelScript previewTurn(String... afterAnswer) {
        ModelScript.Builder b = ModelScript.builder()
                .turn(t -> t.toolCall("call_cols", "apply_column_change", SampleConfigs.STOCK_COLUMNS_CHANGE.formatted(System.nanoTime())))
                .turn(t -> t.toolCall("call_prev", "preview_table_config", "{\"description\": \"Stock levels\"}"))
                .say("Here is the preview.");
        for (String s : afterAnswer) {
            b.say(s);
        }
        return b.build();
    }

    @ParameterizedTest
    @ValueSource(strings = {"ai6-326", "ai7-173"})
    void anAiSdkClientApprovesOnePreviewAndDeniesAnother(String pkg) throws Exception {
        var model = stack.model().scriptedServer();
        // approved: the call is answered in the same assistant message, the config saved at version 1
        model.enqueue(previewTurn("Saved it as a new table."));
        String conversation = "appr-" + pkg + "-" + System.nanoTime();
        JsonNode run = AiSdkClient.approvalChat(pkg, stack.chatUrl(), token, conversation, "Show stock levels", "approve", null);
        assertTrue(run.path("error").isNull(), run.toString());
        JsonNode requested = run.path("requested");
        JsonNode call = toolPart(requested, "tool-accept_preview");
        assertEquals("approval-requested", call.path("state").asText(), requested.toString());
        String previewId = previewPart(requested).path("data").path("previewId").asText();
        assertEquals(previewId, call.path("input").path("previewId").asText(), "the call names the turn's preview");
        String signature = call.path("approval").path("signature").asText(null);
        assertNotNull(signature, "signed: " + call);
        JsonNode sdk = AiSdkClient.signApproval(SECRET, call.path("approval").path("id").asText(), call.path("toolCallId").asText(),
                "accept_preview", call.path("input"), signature);
        assertEquals(sdk.path("signature").asText(), signature, "AI SDK 7's signToolApproval");
        assertTrue(sdk.path("verifies").asBoolean(), "AI SDK 7's verifyToolApprovalSignature");

        JsonNode messages = run.path("messages");
        assertEquals(2, messages.size(), "one user message, one assistant message: " + messages);
        JsonNode assistant = messages.get(1);
        assertEquals(requested.path("id").asText(), assistant.path("id").asText(), "the same assistant message");
        JsonNode kept = toolPart(assistant, "tool-accept_preview");
        assertEquals("output-available", kept.path("state").asText(), kept.toString());
        String configId = kept.path("output").path("configId").asText();
        assertEquals(1, kept.path("output").path("version").asInt(), kept.toString());
        assertTrue(text(assistant).endsWith("Saved it as a new table."), "the model went on: " + assistant);
        assertEquals(2, run.path("requests").size(), "sent back automatically, once");
        assertTrue(run.path("requests").get(1).path("toolApprovals").asBoolean(), run.path("requests").get(1).toString());
        HttpResponse<String> config = stack.call("GET", "/configs/" + configId, token, null);
        assertEquals(200, config.statusCode(), config.body());
        assertEquals(1, Json.parse(config.body()).path("version").asInt());
        assertEquals("accepted", previewStatus(previewId));
        JsonNode stored = storedAssistant(conversation);
        assertEquals("output-available", toolPart(stored, "tool-accept_preview").path("state").asText(), stored.toString());

        // denied: rejected, nothing saved, the model told why
        int before = model.requests().size();
        model.enqueue(previewTurn("Understood: nothing was saved."));
        String second = "deny-" + pkg + "-" + System.nanoTime();
        JsonNode denied = AiSdkClient.approvalChat(pkg, stack.chatUrl(), token, second, "Show stock levels", "deny", "not these columns");
        assertTrue(denied.path("error").isNull(), denied.toString());
        JsonNode deniedPart = toolPart(denied.path("messages").get(1), "tool-accept_preview");
        assertEquals("output-denied", deniedPart.path("state").asText(), deniedPart.toString());
        assertEquals(2, denied.path("messages").size());
        String deniedPreview = deniedPart.path("input").path("previewId").asText();
        assertEquals("rejected", previewStatus(deniedPreview));
        RecordedRequest last = model.requests().getLast();
        assertTrue(model.requests().size() > before);
        String seen = Json.write(last.messages());
        assertTrue(seen.contains("execution-denied") && seen.contains("not these columns"), seen);
        assertEquals("output-denied", toolPart(storedAssistant(second), "tool-accept_preview").path("state").asText());
    }

    @Test
    void forgedAlteredForeignAndUnsignedAnswersChangeNothing() throws Exception {
        var model = stack.model().scriptedServer();
        model.enqueue(previewTurn());
        String conversation = "forged-" + System.nanoTime();
        firstTurn(token, conversation);
        JsonNode message = storedAssistant(conversation);
        JsonNode call = toolPart(message, "tool-accept_preview");
        String previewId = call.path("input").path("previewId").asText();
        assertEquals("approval-requested", call.path("state").asText(), "a reload shows the open approval: " + message);

        model.enqueue(previewTurn());
        String other = "forged-other-" + System.nanoTime();
        firstTurn(token, other);
        String otherPreview = toolPart(storedAssistant(other), "tool-accept_preview").path("input").path("previewId").asText();

        // a made-up approval id
        assertRefused(answer(token, conversation, answered(message, true, p -> ((ObjectNode) p.path("approval")).put("id", "apr_made_up"))),
                "not issued");
        // another preview of the same user in the input
        assertRefused(answer(token, conversation, answered(message, true, p -> ((ObjectNode) p.path("input")).put("previewId", otherPreview))),
                "does not match");
        // the same call answered from another assistant message
        JsonNode moved = answered(message, true, p -> { });
        ((ObjectNode) moved).put("id", "msg_elsewhere");
        assertRefused(answer(token, conversation, moved), "does not match");
        // no signature, a wrong one
        assertRefused(answer(token, conversation, answered(message, true, p -> ((ObjectNode) p.path("approval")).remove("signature"))),
                "signature");
        assertRefused(answer(token, conversation, answered(message, true, p -> ((ObjectNode) p.path("approval")).put("signature",
                "AAAA" + p.path("approval").path("signature").asText().substring(4)))), "signature");
        // another user, in a conversation of the same id: refused exactly as a made-up one
        String intruder = stack.issuer().mint("intruder-" + System.nanoTime());
        assertRefused(answer(intruder, conversation, answered(message, true, p -> { })), "not issued");
        assertEquals("pending", previewStatus(previewId));
        assertEquals("pending", previewStatus(otherPreview));

        // the genuine answer still works afterwards
        model.enqueue(ModelScript.builder().say("Saved.").build());
        List<JsonNode> ok = answer(token, conversation, answered(message, true, p -> { }));
        JsonNode output = only(ok, "tool-output-available").path("output");
        assertEquals(1, output.path("version").asInt(), ok.toString());
        assertEquals("accepted", previewStatus(previewId));
        assertEquals("pending", previewStatus(otherPreview));
    }

    @Test
    void aRepeatedAnswerSavesOnceAndRepeatsTheOutcome() throws Exception {
        var model = stack.model().scriptedServer();
        model.enqueue(previewTurn("Saved."));
        String conversation = "dup-" + System.nanoTime();
        firstTurn(token, conversation);
        JsonNode message = storedAssistant(conversation);
        JsonNode approved = answered(message, true, p -> { });
        JsonNode first = only(answer(token, conversation, approved), "tool-output-available").path("output");
        List<JsonNode> again = answer(token, conversation, approved);
        JsonNode second = only(again, "tool-output-available").path("output");
        assertEquals(first, second, "the first outcome again");
        assertTrue(again.stream().noneMatch(p -> p.path("type").asText().equals("start-step")), "the model is not asked again: " + again);
        HttpResponse<String> config = stack.call("GET", "/configs/" + first.path("configId").asText() + "/versions", token, null);
        assertEquals(200, config.statusCode(), config.body());
        assertEquals(1, Json.parse(config.body()).path("versions").size(), config.body());

        // two at once: one carries it out; the other repeats it or is told to wait (409), never a second version
        model.enqueue(previewTurn("Saved."));
        String racing = "race-" + System.nanoTime();
        firstTurn(token, racing);
        JsonNode raceMessage = answered(storedAssistant(racing), true, p -> { });
        CompletableFuture<HttpResponse<String>> a = CompletableFuture.supplyAsync(() -> post(token, answerBody(racing, raceMessage)));
        CompletableFuture<HttpResponse<String>> b = CompletableFuture.supplyAsync(() -> post(token, answerBody(racing, raceMessage)));
        List<String> configIds = new ArrayList<>();
        for (HttpResponse<String> r : List.of(a.get(), b.get())) {
            if (r.statusCode() == 409) {
                assertEquals("approval_busy", Json.parse(r.body()).path("error").path("code").asText(), r.body());
                continue;
            }
            assertEquals(200, r.statusCode(), r.body());
            JsonNode out = only(parts(r.body()), "tool-output-available").path("output");
            assertEquals(1, out.path("version").asInt());
            configIds.add(out.path("configId").asText());
        }
        assertFalse(configIds.isEmpty());
        assertTrue(configIds.stream().distinct().count() == 1, "one config: " + configIds);
    }

    @Test
    void aNewMessageSupersedesTheApprovalAndAPreviewDecidedElsewhereIsNotDecidedAgain() throws Exception {
        var model = stack.model().scriptedServer();
        model.enqueue(previewTurn("Sure, what else?"));
        String conversation = "stale-" + System.nanoTime();
        firstTurn(token, conversation);
        JsonNode message = storedAssistant(conversation);
        String previewId = toolPart(message, "tool-accept_preview").path("input").path("previewId").asText();
        List<JsonNode> next = turnWith(token, conversation, "u2", "Actually, wait");
        assertTrue(next.stream().noneMatch(p -> p.path("type").asText().startsWith("tool-")), next.toString());
        assertRefused(answer(token, conversation, answered(message, true, p -> { })), "no longer open");
        assertEquals("pending", previewStatus(previewId), "still pending, for the HTTP route");
        assertEquals(201, stack.call("POST", "/previews/" + previewId + "/accept", token, "{}").statusCode());

        model.enqueue(previewTurn());
        String elsewhere = "elsewhere-" + System.nanoTime();
        firstTurn(token, elsewhere);
        JsonNode open = storedAssistant(elsewhere);
        String openPreview = toolPart(open, "tool-accept_preview").path("input").path("previewId").asText();
        assertEquals(200, stack.call("POST", "/previews/" + openPreview + "/reject", token, "{}").statusCode());
        assertRefused(answer(token, elsewhere, answered(open, true, p -> { })), "already rejected");
        assertEquals("rejected", previewStatus(openPreview));
    }

    @Test
    void aClientWithoutTheFlagSeesTodaysStream() throws Exception {
        stack.model().scriptedServer().enqueue(previewTurn());
        List<JsonNode> parts = turnWith(token, "plain-" + System.nanoTime(), "u1", "Show stock levels", false);
        assertTrue(parts.stream().noneMatch(p -> p.path("type").asText().startsWith("tool-approval")
                || p.path("toolName").asText().equals("accept_preview")), parts.toString());
        assertEquals("stop", only(parts, "finish").path("finishReason").asText());
    }

    // ---- helpers ----

    static void firstTurn(String bearer, String conversation) throws Exception {
        List<JsonNode> parts = turnWith(bearer, conversation, "u1", "Show stock levels");
        List<String> tail = parts.subList(parts.size() - 5, parts.size()).stream().map(p -> p.path("type").asText()).toList();
        assertEquals(List.of("start-step", "tool-input-available", "tool-approval-request", "finish-step", "finish"), tail, parts.toString());
        assertEquals("tool-calls", only(parts, "finish").path("finishReason").asText());
    }

    static List<JsonNode> turnWith(String bearer, String conversation, String messageId, String text) throws Exception {
        return turnWith(bearer, conversation, messageId, text, true);
    }

    static List<JsonNode> turnWith(String bearer, String conversation, String messageId, String text, boolean approvals) throws Exception {
        ObjectNode body = Json.object().put("id", conversation).put("trigger", "submit-message");
        if (approvals) {
            body.put("toolApprovals", true);
        }
        ObjectNode message = body.putObject("message").put("id", messageId).put("role", "user");
        message.putArray("parts").addObject().put("type", "text").put("text", text);
        HttpResponse<String> r = post(bearer, Json.write(body));
        assertEquals(200, r.statusCode(), r.body());
        return parts(r.body());
    }

    /** {@code message} with its accept_preview part answered as addToolApprovalResponse does, then {@code edit}ed. */
    static JsonNode answered(JsonNode message, boolean approved, java.util.function.Consumer<ObjectNode> edit) {
        ObjectNode copy = message.deepCopy();
        for (JsonNode p : (ArrayNode) copy.path("parts")) {
            if (p.path("type").asText().equals("tool-accept_preview")) {
                ((ObjectNode) p).put("state", "approval-responded");
                ((ObjectNode) p.path("approval")).put("approved", approved);
                edit.accept((ObjectNode) p);
            }
        }
        return copy;
    }

    static String answerBody(String conversation, JsonNode message) {
        ObjectNode body = Json.object().put("id", conversation).put("trigger", "submit-message").put("toolApprovals", true);
        body.set("message", message);
        return Json.write(body);
    }

    static List<JsonNode> answer(String bearer, String conversation, JsonNode message) throws Exception {
        HttpResponse<String> r = post(bearer, answerBody(conversation, message));
        assertEquals(200, r.statusCode(), r.body());
        List<JsonNode> parts = parts(r.body());
        assertEquals("finish", parts.getLast().path("type").asText(), r.body());
        return parts;
    }

    static void assertRefused(List<JsonNode> parts, String reason) {
        JsonNode error = only(parts, "tool-output-error");
        assertTrue(error.path("errorText").asText().contains(reason), reason + " in " + error);
        assertTrue(parts.stream().noneMatch(p -> p.path("type").asText().equals("tool-output-available")), parts.toString());
    }

    static HttpResponse<String> post(String bearer, String body) {
        try {
            return HTTP.send(HttpRequest.newBuilder(URI.create(stack.chatUrl())).timeout(Duration.ofMinutes(2))
                    .header("authorization", "Bearer " + bearer).header("content-type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    static List<JsonNode> parts(String body) {
        return dev.tablewright.fakes.stream.UiMessageStreamReader.parse(body).parts();
    }

    static JsonNode only(List<JsonNode> parts, String type) {
        List<JsonNode> found = parts.stream().filter(p -> p.path("type").asText().equals(type)).toList();
        assertEquals(1, found.size(), type + " in " + parts);
        return found.getFirst();
    }

    static JsonNode toolPart(JsonNode message, String type) {
        return dev.tablewright.fakes.conversations.SampleMessages.part(message, type);
    }

    static JsonNode previewPart(JsonNode message) {
        return toolPart(message, "data-table-config-preview");
    }

    static String text(JsonNode message) {
        StringBuilder b = new StringBuilder();
        message.path("parts").forEach(p -> {
            if (p.path("type").asText().equals("text")) {
                b.append(p.path("text").asText());
            }
        });
        return b.toString();
    }

    static String previewStatus(String previewId) throws Exception {
        HttpResponse<String> r = stack.call("GET", "/previews/" + previewId, token, null);
        assertEquals(200, r.statusCode(), r.body());
        return Json.parse(r.body()).path("status").asText();
    }

    /** The conversation's last assistant message as stored (what a reload shows). */
    static JsonNode storedAssistant(String conversation) throws Exception {
        HttpResponse<String> r = stack.call("GET", "/conversations/" + conversation, token, null);
        assertEquals(200, r.statusCode(), r.body());
        JsonNode last = null;
        for (JsonNode m : Json.parse(r.body()).path("messages")) {
            if (m.path("role").asText().equals("assistant")) {
                last = m;
            }
        }
        assertNotNull(last, r.body());
        return last;
    }

    @Test
    void aResumedStreamReplaysTheApprovalRequestTheTurnIssued() throws Exception {
        String conversation = "conv-approval-resume-" + System.nanoTime();
        stack.model().scriptedServer().enqueue(ModelScript.builder()
                .turn(t -> t.toolCall("call_cols", "apply_column_change", SampleConfigs.STOCK_COLUMNS_CHANGE.formatted(System.nanoTime())))
                .turn(t -> t.toolCall("call_prev", "preview_table_config", "{\"description\": \"Stock levels\"}"))
                .turn(t -> {
                    for (int i = 0; i < 20; i++) {
                        t.delay(50).text("word" + i + " ");
                    }
                })
                .build());
        ObjectNode body = Json.object().put("id", conversation).put("trigger", "submit-message").put("toolApprovals", true);
        body.putObject("message").put("id", "u1").put("role", "user")
                .putArray("parts").addObject().put("type", "text").put("text", "Show stock levels");
        CompletableFuture<HttpResponse<String>> original = HTTP.sendAsync(HttpRequest.newBuilder(URI.create(stack.chatUrl()))
                .timeout(Duration.ofMinutes(2)).header("authorization", "Bearer " + token)
                .header("content-type", "application/json").POST(HttpRequest.BodyPublishers.ofString(Json.write(body))).build(),
                HttpResponse.BodyHandlers.ofString());
        // a second reader while the turn runs: GET {chat}/{id}/stream follows it from its start to its end
        HttpResponse<String> resumed = Poll.forValue("a reader following the running turn", Duration.ofSeconds(10), () -> {
            HttpResponse<String> r;
            try {
                r = HTTP.send(HttpRequest.newBuilder(URI.create(stack.chatUrl() + "/" + conversation + "/stream"))
                        .timeout(Duration.ofMinutes(2)).header("authorization", "Bearer " + token).GET().build(),
                        HttpResponse.BodyHandlers.ofString());
            } catch (java.io.IOException | InterruptedException e) {
                throw new IllegalStateException(e);
            }
            assertFalse(r.statusCode() != 200 && original.isDone() && r.statusCode() == 204, "the turn ended before a reader could follow it");
            return r.statusCode() == 200 ? java.util.Optional.of(r) : java.util.Optional.empty();
        });
        List<JsonNode> first = parts(original.get().body());
        List<JsonNode> replayed = parts(resumed.body());
        JsonNode request = only(first, "tool-approval-request");
        assertEquals(request, only(replayed, "tool-approval-request"), "the same approval, signature included");
        assertNotNull(request.path("signature").textValue(), request.toString());
        assertEquals(keepCall(first), keepCall(replayed), "the same accept_preview call");
        assertEquals(request.path("toolCallId"), keepCall(replayed).path("toolCallId"));
        assertEquals("tool-calls", only(replayed, "finish").path("finishReason").asText());
        assertEquals(first.getFirst().path("messageId"), replayed.getFirst().path("messageId"), "the same message");
    }

    /** The turn's one accept_preview call, as the stream announced it. */
    static JsonNode keepCall(List<JsonNode> parts) {
        return only(parts.stream().filter(p -> p.path("toolName").asText().equals("accept_preview")).toList(), "tool-input-available");
    }
}
