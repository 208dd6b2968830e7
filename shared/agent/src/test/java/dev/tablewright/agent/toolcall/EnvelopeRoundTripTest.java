package dev.tablewright.agent.toolcall;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.catalogue.OperationToolDefinitions;
import dev.tablewright.failure.ErrorCode;
import dev.tablewright.json.Json;
import dev.tablewright.toolcontract.InvalidInvocation;
import dev.tablewright.toolcontract.InvocationDecoder;
import dev.tablewright.toolcontract.ToolDefinition;
import dev.tablewright.toolcontract.ToolInvocation;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The invocation envelope as every invoker writes it ({@link EnvelopeToolInvoker}) and every tool's runner reads it
 * ({@link InvocationDecoder}): the working config travels as its own field, and envelopes without it read as before.
 */
class EnvelopeRoundTripTest {

    static final ToolDefinition FILTER = OperationToolDefinitions.APPLY_FILTER_CHANGE;
    static final ObjectNode CONFIG = Json.objectLiteral("""
            {"name":"Stock","data_source":[{"schema":"public","source":"stock","select":{"columns":[{"name":"qty"}]}}]}""");

    @Test
    void anInvocationWithAWorkingConfigComesBackWhole() throws Exception {
        ToolInvocation sent = new ToolInvocation("apply_filter_change", "call_1", "conv_1", "user_1",
                Json.objectLiteral("{\"operation\":\"add\",\"filter\":{\"column\":\"qty\",\"operator\":\"gt\",\"value\":5}}"),
                Map.of("database", "sales"), "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", CONFIG);

        ObjectNode envelope = EnvelopeToolInvoker.envelope(sent);
        ToolInvocation read = InvocationDecoder.decode(Json.write(envelope), FILTER);

        assertEquals(sent, read);
        assertEquals(CONFIG, envelope.get("workingConfig"), "its own field of the envelope: " + envelope);
        assertEquals(sent.arguments(), envelope.get("arguments"), "the arguments hold no config: " + envelope);
    }

    @Test
    void withoutAWorkingConfigTheEnvelopeIsAsBefore() {
        ToolInvocation sent = new ToolInvocation("apply_filter_change", "call_1", "conv_1", "user_1",
                Json.objectLiteral("{\"operation\":\"add\"}"), Map.of(), "tp");
        assertEquals("{\"tool\":\"apply_filter_change\",\"toolCallId\":\"call_1\",\"conversationId\":\"conv_1\","
                        + "\"userId\":\"user_1\",\"arguments\":{\"operation\":\"add\"},\"sessionValues\":{},\"traceparent\":\"tp\"}",
                Json.write(EnvelopeToolInvoker.envelope(sent)));
    }

    @Test
    void anEnvelopeWrittenBeforeTheFieldReadsWithItsConfigInTheArguments() throws Exception {
        ToolInvocation read = InvocationDecoder.decode("""
                {"tool":"apply_filter_change","toolCallId":"call_1","arguments":{"operation":"add","config":%s},
                 "sessionValues":{}}""".formatted(Json.write(CONFIG)), FILTER);

        assertNull(read.workingConfig());
        assertEquals(CONFIG, read.config(), "the arguments' config is the one the tool works on");
    }

    @Test
    void theArgumentsConfigWinsOverTheWorkingConfig() throws Exception {
        ObjectNode own = Json.objectLiteral("{\"name\":\"Own\"}");
        ObjectNode envelope = Json.object().put("tool", "apply_filter_change");
        envelope.putObject("arguments").set("config", own);
        envelope.set("workingConfig", CONFIG);
        assertEquals(own, InvocationDecoder.decode(envelope, FILTER).config());

        envelope.withObject("/arguments").putNull("config");
        assertEquals(CONFIG, InvocationDecoder.decode(envelope, FILTER).config(), "a null config is none");
    }

    @Test
    void aWorkingConfigThatIsNoObjectIsRefusedByName() {
        InvalidInvocation refused = assertThrows(InvalidInvocation.class, () -> InvocationDecoder.decode(
                "{\"tool\":\"apply_filter_change\",\"arguments\":{},\"workingConfig\":\"{}\"}", FILTER));
        assertEquals(ErrorCode.INVALID_ARGUMENTS, refused.error().code());
        assertEquals("workingConfig", refused.error().errors().getFirst().field());
    }
}
