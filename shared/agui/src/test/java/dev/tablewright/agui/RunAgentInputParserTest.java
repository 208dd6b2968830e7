package dev.tablewright.agui;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

class RunAgentInputParserTest {

    static final String FULL = """
            {"threadId":"th_1","runId":"run_2","parentRunId":"run_1","protocolVersion":"1.0",
             "messages":[{"id":"m1","role":"user","content":"stock by warehouse"},
                         {"id":"m2","role":"assistant","toolCallIds":[],"toolCalls":[{"id":"c1","type":"function","function":{"name":"show_toast","arguments":"{\\"message\\":\\"hi\\"}"}}]},
                         {"id":"m3","role":"tool","toolCallId":"c1","content":"shown"},
                         {"id":"m4","role":"user","content":[{"type":"text","text":"only "},{"type":"image","source":{"type":"url","value":"https://x"}},{"type":"text","text":"above 5"}]}],
             "state":{"workingConfig":{"name":"Stock"},"preview":null},
             "tools":[{"name":"show_toast","description":"Shows a toast.","parameters":{"type":"object"}}],
             "context":[{"description":"page","value":"tables"}],
             "forwardedProps":{"x":1},
             "resume":[{"interruptId":"i1","status":"resolved","payload":{"approved":true}},{"interruptId":"i2","status":"cancelled"}]}
            """;

    @Test
    void aWholeInputIsReadAsTheProtocolDefinesIt() {
        RunAgentInput in = RunAgentInputParser.parse(FULL);
        assertEquals("th_1", in.threadId());
        assertEquals("run_2", in.runId());
        assertEquals("run_1", in.parentRunId());
        assertEquals(4, in.messages().size());
        assertEquals("show_toast", in.messages().get(1).toolCalls().getFirst().name());
        assertEquals("{\"message\":\"hi\"}", in.messages().get(1).toolCalls().getFirst().arguments());
        assertEquals("c1", in.messages().get(2).toolCallId());
        assertEquals("only above 5", in.messages().get(3).content(), "the text parts, joined");
        assertEquals("Stock", in.workingConfig().path("name").asText());
        assertEquals("show_toast", in.tools().getFirst().name());
        assertEquals("tables", in.context().getFirst().value());
        assertEquals(RunAgentInput.Resume.Status.RESOLVED, in.resume().getFirst().status());
        assertEquals(true, in.resume().getFirst().payload().path("approved").asBoolean());
        assertEquals(RunAgentInput.Resume.Status.CANCELLED, in.resume().get(1).status());
        assertNull(in.resume().get(1).payload());
    }

    @Test
    void theOptionalMembersMayBeLeftOut() {
        RunAgentInput in = RunAgentInputParser.parse("{\"threadId\":\"t\",\"runId\":\"r\",\"messages\":[]}");
        assertEquals(0, in.tools().size() + in.context().size() + in.resume().size());
        assertNull(in.state());
        assertNull(in.workingConfig());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "not json|body",
            "[]|body",
            "{\"runId\":\"r\",\"messages\":[]}|threadId",
            "{\"threadId\":\"\",\"runId\":\"r\",\"messages\":[]}|threadId",
            "{\"threadId\":\"t\",\"messages\":[]}|runId",
            "{\"threadId\":\"t\",\"runId\":\"r\"}|messages",
            "{\"threadId\":\"t\",\"runId\":\"r\",\"messages\":[{\"id\":\"m\",\"role\":\"boss\",\"content\":\"x\"}]}|messages[0].role",
            "{\"threadId\":\"t\",\"runId\":\"r\",\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}|messages[0].id",
            "{\"threadId\":\"t\",\"runId\":\"r\",\"messages\":[{\"id\":\"m\",\"role\":\"user\"}]}|messages[0].content",
            "{\"threadId\":\"t\",\"runId\":\"r\",\"messages\":[{\"id\":\"m\",\"role\":\"tool\",\"content\":\"x\"}]}|messages[0].toolCallId",
            "{\"threadId\":\"t\",\"runId\":\"r\",\"messages\":[{\"id\":\"m\",\"role\":\"assistant\",\"toolCalls\":[{\"id\":\"c\",\"function\":{\"name\":\"f\"}}]}]}|messages[0].toolCalls[0].function.arguments",
            "{\"threadId\":\"t\",\"runId\":\"r\",\"messages\":[],\"state\":[1]}|state",
            "{\"threadId\":\"t\",\"runId\":\"r\",\"messages\":[],\"state\":{\"workingConfig\":\"x\"}}|state.workingConfig",
            "{\"threadId\":\"t\",\"runId\":\"r\",\"messages\":[],\"tools\":[{\"name\":\"f\"}]}|tools[0].description",
            "{\"threadId\":\"t\",\"runId\":\"r\",\"messages\":[],\"context\":{}}|context",
            "{\"threadId\":\"t\",\"runId\":\"r\",\"messages\":[],\"resume\":[{\"interruptId\":\"i\",\"status\":\"maybe\"}]}|resume[0].status",
            "{\"threadId\":\"t\",\"runId\":\"r\",\"messages\":[],\"resume\":[{\"status\":\"resolved\"}]}|resume[0].interruptId",
            "{\"threadId\":\"t\",\"runId\":\"r\",\"messages\":[],\"resume\":[{\"interruptId\":\"i\",\"status\":\"resolved\",\"payload\":null}]}|resume[0].payload",
            "{\"threadId\":\"t\",\"runId\":\"r\",\"messages\":[],\"protocolVersion\":\"2.0\"}|protocolVersion",
    })
    void aMalformedInputIsRefusedNamingTheField(String body, String field) {
        RunInputRefused refused = assertThrows(RunInputRefused.class, () -> RunAgentInputParser.parse(body));
        assertEquals(field, refused.field(), refused.getMessage());
    }
}
