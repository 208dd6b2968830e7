package dev.tablewright.localstack.local;

import dev.tablewright.fakes.identity.DevIssuer;
import dev.tablewright.fakes.model.BedrockModelServer;
import dev.tablewright.fakes.model.ModelScript;
import dev.tablewright.fakes.model.RecordedRequest;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code MODEL_PROVIDER=bedrock} without a {@code BEDROCK_MODEL_ID}: the local stack starts on the Bedrock stand-in,
 * and the bundled example conversation streams over ConverseStream through the chat function URL to a table-config
 * preview, as it does on the OpenAI-compatible scripted model; a mid-stream exception ends a turn and the stack
 * answers the next one.
 */
class LocalDeploymentBedrockTest {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    @AutoClose
    private static LocalDeployment stack;

    @BeforeAll
    static void start() throws Exception {
        // each replay: one answer that Bedrock breaks off mid-stream, then the bundled example conversation
        ModelScript.Builder script = ModelScript.builder()
                .turn(t -> t.text("Let me look at ").streamException("modelStreamErrorException", "The model stream was interrupted."));
        LocalModel.exampleConversation().turns().forEach(script::add);
        stack = LocalDeployment.start(LocalDeployment.Settings.forTest(Map.of("MODEL_PROVIDER", "bedrock"), script.build()));
    }

    private static HttpResponse<String> chat(String conversation) throws Exception {
        String token = stack.issuer().mint(DevIssuer.DEV_USER);
        return HTTP.send(HttpRequest.newBuilder(URI.create(stack.chatUrl())).timeout(Duration.ofMinutes(2))
                .header("authorization", "Bearer " + token)
                .POST(HttpRequest.BodyPublishers.ofString(LocalDeployment.exampleChatBody().replace("conv-demo-1", conversation)))
                .build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void aTurnBrokenOffMidStreamEndsCleanlyAndTheNextStreamsOverBedrockToAPreview() throws Exception {
        assertNull(stack.model().scriptedServer(), "no OpenAI-compatible model is started");
        assertTrue(stack.model().describe().contains("Bedrock stand-in"), stack.model().describe());
        BedrockModelServer bedrock = stack.model().bedrockServer();

        HttpResponse<String> broken = chat("conv-bedrock-broken-" + System.nanoTime());
        assertEquals(200, broken.statusCode(), broken.body());
        assertTrue(broken.body().contains("Let me look at "), broken.body());
        assertTrue(broken.body().contains("\"type\":\"error\""), broken.body());
        assertTrue(broken.body().contains("\"type\":\"finish\""), broken.body());
        assertEquals(1, bedrock.requests().size(), "part of the answer was streamed: not retried");

        HttpResponse<String> r = chat("conv-bedrock-" + System.nanoTime());
        assertEquals(200, r.statusCode(), r.body());
        assertTrue(r.body().contains("\"type\":\"data-table-config-preview\""), r.body());
        assertTrue(r.body().contains("\"finishReason\":\"stop\""), r.body());
        assertFalse(r.body().contains("\"type\":\"error\""), r.body());
        List<RecordedRequest> sent = bedrock.requests();
        assertEquals(stack.model().bedrockSettings().modelId(), BedrockModelServer.modelId(sent.getLast()));
        assertTrue(sent.getLast().headers().get("Authorization").contains("/bedrock/aws4_request"), "signed for bedrock");
        assertEquals(List.of(), bedrock.violations(), "every request is one Bedrock accepts");
    }
}
