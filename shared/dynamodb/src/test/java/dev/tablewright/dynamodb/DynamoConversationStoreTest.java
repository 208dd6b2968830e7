package dev.tablewright.dynamodb;

import dev.tablewright.fakes.conversations.SampleMessages;

import dev.tablewright.configstore.InvalidCursorException;
import dev.tablewright.configstore.Page;
import dev.tablewright.conversation.ConversationSummary;
import dev.tablewright.conversation.ConversationTurn;
import dev.tablewright.conversation.DraftSource;
import dev.tablewright.conversation.StoredConversation;
import dev.tablewright.conversation.StoredMessage;
import dev.tablewright.conversation.WorkingDraft;
import dev.tablewright.dynamodb.DynamoConversationStore;
import dev.tablewright.fakes.dynamodb.DynamoDbEngine;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The conversation store against DynamoDB Local, on the table template.yaml declares. */
class DynamoConversationStoreTest {

    @RegisterExtension
    static final DynamoDbEngine ENGINE = DynamoDbEngine.dynamoDbLocal();

    static final Instant T0 = Instant.parse("2026-11-24T10:00:00Z");

    DynamoConversationStore store;
    String owner;

    @BeforeEach
    void setUp() {
        store = new DynamoConversationStore(ENGINE.client(), ENGINE.environment().get("CONVERSATIONS_TABLE"), Duration.ofDays(90));
        owner = "user-" + System.nanoTime();
    }

    static WorkingDraft draft(String name) {
        return new WorkingDraft("{\"name\":\"" + name + "\"}", DraftSource.TOOL_RESULT, null, null, null);
    }

    @Test
    void aTurnCreatesTheConversationAndLaterTurnsAppendReplaceAndKeepTheTitle() {
        store.saveTurn(owner, "c1", new ConversationTurn(List.of(SampleMessages.user("u1", "hello"), SampleMessages.assistant("a1", "hi")),
                Optional.of(draft("first")), "hello"), T0);
        StoredConversation one = store.find(owner, "c1").orElseThrow();
        assertEquals(List.of("u1", "a1"), one.messages().stream().map(StoredMessage::id).toList());
        assertEquals("hello", one.summary().title());
        assertEquals(T0, one.summary().createdAt());
        assertEquals("{\"name\":\"first\"}", one.draft().orElseThrow().configJson());

        // the paused assistant message a1 is saved again by the turn that resumes it: replaced in place
        store.saveTurn(owner, "c1", new ConversationTurn(List.of(SampleMessages.assistant("a1", "hi, resumed"), SampleMessages.user("u2", "more"), SampleMessages.assistant("a2", "ok")),
                Optional.empty(), "more"), T0.plusSeconds(60));
        StoredConversation two = store.find(owner, "c1").orElseThrow();
        assertEquals(List.of("u1", "a1", "u2", "a2"), two.messages().stream().map(StoredMessage::id).toList());
        assertTrue(two.messages().get(1).json().contains("hi, resumed"));
        assertEquals("hello", two.summary().title(), "the title is set once");
        assertEquals(T0, two.summary().createdAt());
        assertEquals(T0.plusSeconds(60), two.summary().updatedAt());
        assertEquals("{\"name\":\"first\"}", two.draft().orElseThrow().configJson(), "no draft in the turn keeps the stored one");

        WorkingDraft accepted = new WorkingDraft("{\"name\":\"saved\"}", DraftSource.ACCEPTED_VERSION, "cfg_1", 3L, null);
        store.saveTurn(owner, "c1", new ConversationTurn(List.of(), Optional.of(accepted), null), T0.plusSeconds(120));
        StoredConversation three = store.find(owner, "c1").orElseThrow();
        assertEquals(accepted, three.draft().orElseThrow());
        assertEquals("cfg_1", three.summary().configId());
    }

    @Test
    void theListIsNewestFirstPagedAndPerOwner() {
        for (int i = 0; i < 5; i++) {
            store.saveTurn(owner, "c" + i, new ConversationTurn(List.of(SampleMessages.user("u", "q" + i)), Optional.empty(), "q" + i), T0.plusSeconds(i));
        }
        store.saveTurn(owner, "c1", new ConversationTurn(List.of(SampleMessages.user("u2", "again")), Optional.empty(), null), T0.plusSeconds(100));
        store.saveTurn("someone-else", "c9", new ConversationTurn(List.of(SampleMessages.user("u", "x")), Optional.empty(), "x"), T0);

        Page<ConversationSummary> first = store.list(owner, 2, null);
        assertEquals(List.of("c1", "c4"), first.items().stream().map(ConversationSummary::id).toList());
        Page<ConversationSummary> second = store.list(owner, 2, first.nextCursor());
        assertEquals(List.of("c3", "c2"), second.items().stream().map(ConversationSummary::id).toList());
        Page<ConversationSummary> third = store.list(owner, 2, second.nextCursor());
        assertEquals(List.of("c0"), third.items().stream().map(ConversationSummary::id).toList());
        assertEquals("q1", first.items().getFirst().title());
        assertThrows(InvalidCursorException.class, () -> store.list(owner, 2, "not-a-cursor"));
        assertTrue(store.list("nobody", 10, null).items().isEmpty());
        assertTrue(store.find("someone-else", "c1").isEmpty(), "another owner's conversation does not exist for them");
    }

    @Test
    void renameAndDeleteTouchOnlyTheOwnersConversation() {
        store.saveTurn(owner, "c1", new ConversationTurn(List.of(SampleMessages.user("u1", "hi")), Optional.of(draft("d")), "hi"), T0);
        assertFalse(store.rename("intruder", "c1", "mine now", T0.plusSeconds(1)));
        assertFalse(store.delete("intruder", "c1"));
        assertTrue(store.rename(owner, "c1", "Stock by warehouse", T0.plusSeconds(5)));
        assertEquals("Stock by warehouse", store.find(owner, "c1").orElseThrow().summary().title());
        assertEquals("Stock by warehouse", store.list(owner, 10, null).items().getFirst().title());

        assertTrue(store.delete(owner, "c1"));
        assertTrue(store.find(owner, "c1").isEmpty());
        assertFalse(store.delete(owner, "c1"));
        assertFalse(store.rename(owner, "c1", "x", T0));
        List<Map<String, AttributeValue>> left = ENGINE.client().scan(b -> b.tableName(ENGINE.environment().get("CONVERSATIONS_TABLE"))).items()
                .stream().filter(i -> i.get("pk").s().equals("OWNER#" + owner)).toList();
        assertEquals(List.of(), left, "no message body is left behind");
    }

    @Test
    void aConversationLargerThanOneItemRoundTripsAndEveryItemExpires() {
        Random random = new Random(7);
        List<StoredMessage> messages = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            StringBuilder noise = new StringBuilder();
            for (int j = 0; j < 80_000; j++) {
                noise.append((char) ('a' + random.nextInt(26)));
            }
            messages.add(SampleMessages.assistant("a" + i, noise.toString()));
        }
        store.saveTurn(owner, "big", new ConversationTurn(messages, Optional.empty(), "big"), T0);
        StoredConversation big = store.find(owner, "big").orElseThrow();
        assertEquals(messages, big.messages());

        List<Map<String, AttributeValue>> items = ENGINE.client().scan(b -> b.tableName(ENGINE.environment().get("CONVERSATIONS_TABLE"))).items()
                .stream().filter(i -> i.get("pk").s().equals("OWNER#" + owner)).toList();
        assertTrue(items.size() > 2, "the body spans several items: " + items.size());
        long expected = T0.plus(Duration.ofDays(90)).getEpochSecond();
        items.forEach(i -> assertEquals(String.valueOf(expected), i.get("expiresAtEpoch").n(), i.get("sk").s()));
    }

    @Test
    void twoTurnsSavedAtOnceKeepBothTurnsMessages() throws Exception {
        store.saveTurn(owner, "c1", new ConversationTurn(List.of(SampleMessages.user("u0", "start")), Optional.empty(), "start"), T0);
        int writers = 4;
        CyclicBarrier barrier = new CyclicBarrier(writers);
        List<CompletableFuture<Void>> runs = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
            String id = "u" + (w + 1);
            runs.add(CompletableFuture.runAsync(() -> {
                try {
                    barrier.await();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
                store.saveTurn(owner, "c1", new ConversationTurn(List.of(SampleMessages.user(id, id)), Optional.empty(), null), T0.plusSeconds(1));
            }));
        }
        for (CompletableFuture<Void> run : runs) {
            run.get();
        }
        List<String> ids = store.find(owner, "c1").orElseThrow().messages().stream().map(StoredMessage::id).sorted().toList();
        assertEquals(List.of("u0", "u1", "u2", "u3", "u4"), ids);
    }

    @Test
    void aConversationWithoutATitleListsWithNone() {
        store.saveTurn(owner, "c1", new ConversationTurn(List.of(), Optional.empty(), null), T0);
        assertNull(store.find(owner, "c1").orElseThrow().summary().title());
    }
}
