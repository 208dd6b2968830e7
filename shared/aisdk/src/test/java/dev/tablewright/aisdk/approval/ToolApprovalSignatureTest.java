package dev.tablewright.aisdk.approval;

import dev.tablewright.json.Json;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The signature against vectors made by the AI SDK 7 package's own {@code signToolApproval} (ai 7.0.173,
 * {@code infra/node-client/sign-approval.mjs}); the system test {@code ToolApprovalTest} compares live calls too.
 */
class ToolApprovalSignatureTest {

    @Test
    void signsAsTheAiSdkDoes() throws Exception {
        assertEquals("Td_FgfPibl2ikSNSTZpY59kNTlHS7l03NkqVakQSEG8", new ToolApprovalSignature("s3cret").sign("apr_1", "call_1",
                "accept_preview", Json.parse("{\"previewId\":\"prv_1\",\"b\":[1,2.5,\"é\\n\"],\"a\":1e+21}")));
        // quotes and newlines in the ids, a non-ASCII key and secret, control characters, U+2028, -0, tiny and huge numbers
        assertEquals("SxW-UhjdT-8ZHOj-AiZtJ0WtgI23Ob_iz683fmdZx08", new ToolApprovalSignature("k€y").sign("apr_\"2", "call\n2",
                "accept_preview", Json.parse("{\"z\":{\"y\":null,\"x\":true,\"Ä\":\"\\u0001\\u001f\u2028\"},\"B\":-0,"
                        + "\"a\":[0.1,1e-7,123456789012345680000,5e-324,1.7976931348623157e+308]}")));
    }

    @Test
    void canonicalJsonIsTheSdks() throws Exception {
        assertEquals("{\"a\":[1,2.5,\"x\"],\"b\":{\"c\":null,\"d\":false}}",
                ToolApprovalSignature.canonical(Json.parse("{\"b\": {\"d\": false, \"c\": null}, \"a\": [1, 2.50, \"x\"]}")));
        assertEquals("1e+21", ToolApprovalSignature.jsNumber(Json.parse("1e21")));
        assertEquals("100000000000000000000", ToolApprovalSignature.jsNumber(Json.parse("1e20")));
        assertEquals("1e-7", ToolApprovalSignature.jsNumber(Json.parse("0.0000001")));
        assertEquals("0.000001", ToolApprovalSignature.jsNumber(Json.parse("1e-6")));
        assertEquals("-1.5", ToolApprovalSignature.jsNumber(Json.parse("-1.50")));
        assertEquals("\"\\ud800x\"", ToolApprovalSignature.jsString("\ud800x"));
    }

    @Test
    void verifiesOnlyTheSameCall() throws Exception {
        ToolApprovalSignature signer = new ToolApprovalSignature("s3cret");
        var input = Json.parse("{\"previewId\":\"prv_1\"}");
        String signature = signer.sign("apr_1", "call_1", "accept_preview", input);
        assertTrue(signer.verify(signature, "apr_1", "call_1", "accept_preview", Json.parse("{ \"previewId\" : \"prv_1\" }")));
        assertFalse(signer.verify(signature, "apr_1", "call_1", "accept_preview", Json.parse("{\"previewId\":\"prv_2\"}")));
        assertFalse(signer.verify(signature, "apr_2", "call_1", "accept_preview", input));
        assertFalse(new ToolApprovalSignature("other").verify(signature, "apr_1", "call_1", "accept_preview", input));
        assertFalse(signer.verify(null, "apr_1", "call_1", "accept_preview", input));
        assertFalse(signer.verify("not base64!", "apr_1", "call_1", "accept_preview", input));
    }
}
