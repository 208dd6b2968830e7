package dev.tablewright.aisdk.request;

import dev.tablewright.agent.AgentInput;
import dev.tablewright.agent.memory.Transcript;
import dev.tablewright.agent.memory.TranscriptTurn;
import dev.tablewright.agent.model.ModelMessage;
import dev.tablewright.door.TranscriptSplit;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A useChat history (UiMessages, the AI SDK door's form) split by the door kit's TranscriptSplit into the agent's earlier turns and this turn's start, by the turns' keys (their message ids). */
class UiTranscriptSplitTest {

    private final ChatRequestParser parser = new ChatRequestParser();
    private final TranscriptSplit<UiMessage> transcript = new TranscriptSplit<>(UiMessages.FORM);

    private List<UiMessage> messages(String json) throws Exception {
        return parser.parse("{\"id\":\"chat_1\",\"trigger\":\"submit-message\",\"messages\":[" + json + "]}").messages();
    }

    private static final String FIRST_TURN = """
            {"id":"u1","role":"user","parts":[{"type":"text","text":"add the city"}]},
            {"id":"a1","role":"assistant","parts":[{"type":"step-start"},{"type":"text","text":"Added."}]}""";

    @Test
    void aNewMessageStartsTheTurnAndEarlierTurnsAreConvertedUnderTheirKeys() throws Exception {
        TranscriptSplit.Split split = transcript.split(messages(FIRST_TURN + """
                ,{"id":"u2","role":"user","parts":[{"type":"text","text":"now sort it"}]}"""), "a2", Optional.empty());
        assertEquals(new AgentInput.NewMessage("now sort it"), split.start());
        assertEquals("u2|a2", split.turnKey(), "this turn's messages and the answer it writes");
        TranscriptTurn earlier = split.history().turns().getFirst();
        assertEquals("u1|a1", earlier.key());
        assertEquals(List.of(new ModelMessage.User("add the city"), new ModelMessage.Assistant("Added.", List.of())), earlier.messages());
        assertTrue(earlier.digest().startsWith("The user asked: \"add the city\""), earlier.digest());
    }

    @Test
    void aTurnTheAgentRemembersIsTakenFromItsTranscriptNotFromTheClient() throws Exception {
        TranscriptTurn remembered = new TranscriptTurn("u1|a1", List.of(new ModelMessage.User("add the city (as stored)")), "stored");
        TranscriptSplit.Split split = transcript.split(messages(FIRST_TURN + """
                ,{"id":"u2","role":"user","parts":[{"type":"text","text":"next"}]}"""), "a2", Optional.of(new Transcript(List.of(remembered))));
        assertEquals(remembered, split.history().turns().getFirst());
    }

    @Test
    void turnsOlderThanTheFirstRememberedOneAreCountedNotConverted() throws Exception {
        TranscriptTurn second = new TranscriptTurn("u2|a2", List.of(new ModelMessage.User("kept")), "kept");
        TranscriptSplit.Split split = transcript.split(messages(FIRST_TURN + """
                ,{"id":"u2","role":"user","parts":[{"type":"text","text":"second"}]},
                 {"id":"a2","role":"assistant","parts":[{"type":"text","text":"ok"}]},
                 {"id":"u3","role":"user","parts":[{"type":"text","text":"third"}]}"""), "a3", Optional.of(new Transcript(List.of(second))));
        List<TranscriptTurn> turns = split.history().turns();
        assertEquals(2, turns.size());
        assertEquals(new TranscriptTurn("u1|a1", List.of(), ""), turns.get(0), "compacted away on purpose: an empty turn");
        assertEquals(second, turns.get(1));
    }

    @Test
    void aResumedAssistantMessageContinuesItsTurnWithTheCallsLeftOpen() throws Exception {
        TranscriptSplit.Split split = transcript.split(messages("""
                {"id":"u1","role":"user","parts":[{"type":"text","text":"which database?"}]},
                {"id":"a1","role":"assistant","parts":[{"type":"step-start"},
                  {"type":"tool-ask_database","toolCallId":"c1","state":"input-available","input":{"why":"pick one"}}]}"""),
                "a1", Optional.empty());
        assertEquals("u1|a1", split.turnKey(), "the resumed message is this turn's own");
        assertTrue(split.history().turns().isEmpty());
        AgentInput.Resume resume = assertInstanceOf(AgentInput.Resume.class, split.start());
        assertEquals(1, resume.pending().size());
        AgentInput.PendingCall open = resume.pending().getFirst();
        assertEquals("c1", open.toolCallId());
        assertEquals("ask_database", open.toolName());
        assertEquals("pick one", open.arguments().path("why").asText());
        assertTrue(open.waitingFor().isEmpty(), "no record of the paused turn: taken from the message");
    }
}
