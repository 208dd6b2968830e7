package dev.tablewright.agent.conversation;

import dev.tablewright.agent.AgentResult;
import dev.tablewright.agent.DeferredCall;
import dev.tablewright.agent.PausedTurn;
import dev.tablewright.agent.StopReason;
import dev.tablewright.agent.memory.Transcript;
import dev.tablewright.agent.memory.TranscriptJson;
import dev.tablewright.agent.memory.TranscriptTurn;
import dev.tablewright.agent.model.ModelMessage;
import dev.tablewright.agent.model.TokenUsage;
import dev.tablewright.agent.model.ToolCallRequest;
import dev.tablewright.agent.testing.InMemoryConversations;
import dev.tablewright.conversation.ConversationTurn;
import dev.tablewright.conversation.StoredConversation;
import dev.tablewright.conversation.StoredMessage;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the agent keeps of a conversation between turns: its transcript, and the calls a paused turn left open. */
class ConversationMemoryTest {

    final InMemoryConversations store = new InMemoryConversations();
    final ConversationMemory state = new ConversationMemory(store, null, null, Clock.systemUTC());
    final Transcript transcript = new Transcript(List.of(new TranscriptTurn("u1|a1", List.of(new ModelMessage.User("how many?"),
            new ModelMessage.Assistant("", List.of(new ToolCallRequest("call_1", "get_tables", "{}"),
                    new ToolCallRequest("call_2", "search", "{}")))), "asked how many")));
    final List<StoredMessage> shown = List.of(new StoredMessage("u1", "user", "{}"));

    @Test
    void aPausedTurnsOpenCallsAreKeptWithItsTranscriptAndReadBack() {
        List<DeferredCall> open = List.of(new DeferredCall("call_1", "get_tables", DeferredCall.Waiting.CLIENT),
                new DeferredCall("call_2", "search", DeferredCall.Waiting.USER_INPUT));
        state.save("user_1", "c1", shown, "how many?",
                new AgentResult(StopReason.PAUSED, Optional.empty(), transcript, TokenUsage.NONE, open, "u1|a1"));

        Optional<StoredConversation> stored = state.find("user_1", "c1");
        assertEquals(Optional.of(new PausedTurn("u1|a1", open)), ConversationMemory.memory(stored).paused());
        assertEquals(Optional.of(transcript), ConversationMemory.memory(stored).transcript(), "the transcript reads as before");
    }

    @Test
    void aTurnThatDidNotPauseLeavesNoOpenCalls() {
        state.save("user_1", "c1", shown, null, new AgentResult(StopReason.PAUSED, Optional.empty(), transcript, TokenUsage.NONE,
                List.of(new DeferredCall("call_1", "get_tables", DeferredCall.Waiting.CLIENT)), "u1|a1"));
        state.save("user_1", "c1", shown, null,
                new AgentResult(StopReason.COMPLETED, Optional.empty(), transcript, TokenUsage.NONE, List.of(), "u1|a1"));

        assertEquals(Optional.empty(), ConversationMemory.memory(state.find("user_1", "c1")).paused());
    }

    @Test
    void aMemoryWithoutARecordOrThatCannotBeReadHasNoPausedTurn() {
        store.saveTurn("user_1", "c1", new ConversationTurn(shown, Optional.empty(), null,
                Optional.of(TranscriptJson.write(transcript))), Instant.EPOCH);
        assertTrue(ConversationMemory.memory(state.find("user_1", "c1")).paused().isEmpty(), "stored before the record was kept");
        store.saveTurn("user_1", "c1", new ConversationTurn(shown, Optional.empty(), null,
                Optional.of("{\"v\":1,\"turns\":[],\"paused\":{\"turnKey\":\"u1|a1\",\"calls\":[{\"id\":\"c\",\"name\":\"n\",\"waitingFor\":\"later\"}]}}")), Instant.EPOCH);
        assertTrue(ConversationMemory.memory(state.find("user_1", "c1")).paused().isEmpty(), "an unknown wait is no record");
    }
}
