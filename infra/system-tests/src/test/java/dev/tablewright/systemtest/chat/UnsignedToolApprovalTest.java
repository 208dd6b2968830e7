package dev.tablewright.systemtest.chat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.fakes.identity.DevIssuer;
import dev.tablewright.fakes.model.ModelScript;
import dev.tablewright.json.Json;
import dev.tablewright.localstack.local.LocalDeployment;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Without a signing secret, tool approvals still work, bound by the call the server stored, and on Amazon Bedrock's
 * wire too: on the local stack with no {@code TOOL_APPROVAL_SECRET} and {@code MODEL_PROVIDER=bedrock} (the Bedrock
 * stand-in, which checks Bedrock's request rules), the first AI SDK 6 release ({@code ai} 6.0.0, whose stream schema
 * has no {@code signature}) keeps a preview through the approval, and {@code ai} 7.0.0 denies one: the model's next
 * request carries the call and its execution-denied result with the user's reason.
 */
class UnsignedToolApprovalTest {

    @AutoClose
    private static LocalDeployment stack;
    private static String token;

    @BeforeAll
    static void start() throws Exception {
        stack = LocalDeployment.start(LocalDeployment.Settings.forTest(Map.of("MODEL_PROVIDER", "bedrock"),
                ModelScript.builder().build()));
        token = stack.issuer().mint(DevIssuer.DEV_USER);
    }

    @Test
    void anUnsignedApprovalKeepsThePreview() throws Exception {
        stack.model().bedrockServer().enqueue(ToolApprovalTest.previewTurn("Saved."));
        JsonNode run = AiSdkClient.approvalChat("ai6-0", stack.chatUrl(), token, "unsigned-" + System.nanoTime(),
                "Show stock levels", "approve", null);
        assertTrue(run.path("error").isNull(), run.toString());
        JsonNode requested = ToolApprovalTest.toolPart(run.path("requested"), "tool-accept_preview");
        assertEquals("approval-requested", requested.path("state").asText(), run.toString());
        assertFalse(requested.path("approval").has("signature"), "no secret, no signature: " + requested);
        assertEquals(2, run.path("messages").size(), run.toString());
        JsonNode kept = ToolApprovalTest.toolPart(run.path("messages").get(1), "tool-accept_preview");
        assertEquals("output-available", kept.path("state").asText(), kept.toString());
        assertEquals(1, kept.path("output").path("version").asInt());
        HttpResponse<String> config = stack.call("GET", "/configs/" + kept.path("output").path("configId").asText(), token, null);
        assertEquals(1, Json.parse(config.body()).path("version").asInt(), config.body());
        assertEquals(List.of(), stack.model().bedrockServer().violations(), "Bedrock's request rules");
    }

    @Test
    void anUnsignedDenialReachesTheModelOnBedrocksWire() throws Exception {
        var bedrock = stack.model().bedrockServer();
        bedrock.enqueue(ToolApprovalTest.previewTurn("Understood."));
        JsonNode run = AiSdkClient.approvalChat("ai7", stack.chatUrl(), token, "unsigned-deny-" + System.nanoTime(),
                "Show stock levels", "deny", "wrong table");
        assertTrue(run.path("error").isNull(), run.toString());
        JsonNode denied = ToolApprovalTest.toolPart(run.path("messages").get(1), "tool-accept_preview");
        assertEquals("output-denied", denied.path("state").asText(), denied.toString());
        String last = Json.write(bedrock.requests().getLast().body());
        assertTrue(last.contains("toolUse") && last.contains("accept_preview") && last.contains("execution-denied")
                && last.contains("wrong table"), last);
        assertEquals(List.of(), bedrock.violations(), "Bedrock's request rules");
    }
}
