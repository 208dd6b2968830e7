package dev.tablewright.agui;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.agent.model.ModelMessage;
import dev.tablewright.json.Json;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class ThreadMessageTest {

    @Test
    void theClientsMessagesAreGroupedAsStoredAndGiveTheSameWireBack() {
        RunAgentInput in = RunAgentInputParser.parse(RunAgentInputParserTest.FULL);
        List<ThreadMessage> thread = ThreadMessage.group(in.messages());
        assertEquals(3, thread.size(), "the tool message sits with its call");
        ThreadMessage assistant = thread.get(1);
        assertEquals("shown", assistant.calls().getFirst().result());
        assertEquals(List.of(), assistant.open());
        assertEquals(List.of("m1", "m2", "m3", "m4"), thread.stream().flatMap(m -> m.wireIds().stream()).toList());
        ObjectNode tool = assistant.wire().get(1);
        assertEquals("{\"id\":\"m3\",\"role\":\"tool\",\"toolCallId\":\"c1\",\"content\":\"shown\"}", Json.write(tool));
        assertEquals(assistant, ThreadMessage.read(assistant.json()), "stored and read back");
        assertEquals(List.of(ModelMessage.Assistant.class, ModelMessage.ToolResult.class),
                assistant.model().stream().map(Object::getClass).toList());
        assertNull(ThreadMessage.read(Json.objectLiteral("{\"id\":\"x\",\"role\":\"user\",\"parts\":[]}")), "another door's message");
    }

    @Test
    void theAssemblerStoresWhatTheRunStreamed() {
        ThreadMessageAssembler assembler = new ThreadMessageAssembler("msg_1", null);
        List.<AgUiEvent>of(new AgUiEvent.TextMessageStart("t1"), new AgUiEvent.TextMessageContent("t1", "Building "),
                new AgUiEvent.TextMessageContent("t1", "it."), new AgUiEvent.TextMessageEnd("t1"),
                new AgUiEvent.ToolCallStart("c1", "preview_table_config", "t1"), new AgUiEvent.ToolCallArgs("c1", "{\"a\":"),
                new AgUiEvent.ToolCallArgs("c1", "1}"), new AgUiEvent.ToolCallEnd("c1"),
                new AgUiEvent.ToolCallResult("r1", "c1", "{\"valid\":true}"),
                new AgUiEvent.ToolCallStart("c2", "accept_preview", null), new AgUiEvent.ToolCallEnd("c2")).forEach(assembler);
        ThreadMessage m = assembler.message();
        assertEquals("Building it.", m.text());
        assertEquals("{\"a\":1}", m.calls().getFirst().arguments());
        assertEquals("{\"valid\":true}", m.calls().getFirst().result());
        assertEquals(List.of("c2"), m.open().stream().map(ThreadMessage.Call::id).toList());

        ThreadMessageAssembler resumed = new ThreadMessageAssembler("ignored", m);
        resumed.accept(new AgUiEvent.ToolCallResult("r2", "c2", "{\"version\":1}"));
        assertEquals("msg_1", resumed.message().id());
        assertEquals(List.of(), resumed.message().open());
    }
}
