package dev.tablewright.dynamodb;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.tablewright.configstore.ConfigNameTakenException;
import dev.tablewright.configstore.StoredConfig;
import dev.tablewright.configstore.VersionConflictException;
import dev.tablewright.conversation.ConversationTurn;
import dev.tablewright.conversation.IssuedApproval;
import dev.tablewright.conversation.StoredMessage;
import dev.tablewright.conversation.TurnStreamLog;
import dev.tablewright.fakes.configs.SampleConfigs;
import dev.tablewright.fakes.conversations.SampleMessages;
import dev.tablewright.fakes.dynamodb.DynamoDbEngine;
import dev.tablewright.fakes.dynamodb.FaultyDynamoDbProxy;
import dev.tablewright.fakes.dynamodb.FaultyDynamoDbProxy.Fault;
import dev.tablewright.mcpsession.McpSession;
import dev.tablewright.preview.PendingPreview;
import dev.tablewright.preview.PreviewNotPendingException;
import dev.tablewright.preview.PreviewStatus;
import dev.tablewright.toolcontract.FieldType;
import dev.tablewright.toolcontract.InputField;
import dev.tablewright.toolcontract.ValueScope;
import dev.tablewright.userinput.InputRequest;
import dev.tablewright.userinput.InputRequestConflictException;
import dev.tablewright.userinput.RequestStatus;
import dev.tablewright.userinput.SavedValue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every conditional write of the stores, through {@link FaultyDynamoDbProxy} in front of DynamoDB Local, with the
 * client as the functions build it (the SDK's own retries): its answer lost once after it committed, it answers as
 * without the fault (the SDK's retry meets the write's own item and knows it); throttled or answered 500 a few times,
 * it answers the same. Beside each, the real conflict (another request's write) is still refused as before.
 */
class ConditionalWritesUnderFaultsTest {

    @RegisterExtension
    static final DynamoDbEngine ENGINE = DynamoDbEngine.dynamoDbLocal();

    static final Instant NOW = Instant.now().truncatedTo(ChronoUnit.MILLIS);

    FaultyDynamoDbProxy proxy;
    DynamoDbClient viaProxy;
    String owner;

    @BeforeEach
    void setUp() throws IOException {
        proxy = new FaultyDynamoDbProxy(ENGINE.endpoint());
        viaProxy = DynamoDbClients.forEndpoint(proxy.endpoint(), DynamoDbClients.Settings.DEFAULT);
        owner = "u-" + UUID.randomUUID();
    }

    @AfterEach
    void tearDown() {
        proxy.close();
    }

    private String table(String logicalId) {
        return ENGINE.tables().tableName(logicalId);
    }

    /** The next call of {@code operation} on {@code logicalId}'s table meets {@code fault} ({@code times} times). */
    private void next(String operation, String logicalId, Fault fault, int times) {
        proxy.fail(operation, table(logicalId), fault, times);
    }

    private void assertFaulted(String operation, int times) {
        assertEquals(times, proxy.faultedCalls(operation), operation + " met the fault");
    }

    // ---- previews ----

    private PendingPreview preview(String conversation) {
        return PendingPreview.create(owner, conversation, null, null, "new", SampleConfigs.orders("Once " + UUID.randomUUID()),
                JsonNodeFactory.instance.objectNode(), NOW, Duration.ofHours(1));
    }

    @Test
    void aPreviewSavedWithItsAnswerLostIsSavedOnceAndAnswered() {
        DynamoPreviewStore previews = new DynamoPreviewStore(viaProxy, table("PreviewsTable"));
        PendingPreview p = preview("c1");
        next("PutItem", "PreviewsTable", Fault.LOSE_ANSWER, 1);
        assertEquals(p, previews.save(p));
        assertFaulted("PutItem", 1);
        assertEquals(PreviewStatus.PENDING, previews.find(owner, p.previewId()).orElseThrow().status());

        // the same preview saved again (the same tool call run twice) answers the first; another under its id is refused
        assertEquals(p, previews.save(new PendingPreview(p.previewId(), owner, "c1", null, null, "new", p.config(),
                p.summary(), PreviewStatus.PENDING, NOW.plusSeconds(5), NOW.plusSeconds(5).plus(Duration.ofHours(1)))));
        assertThrows(IllegalStateException.class, () -> previews.save(new PendingPreview(p.previewId(), owner, "c1", null, null,
                "other", SampleConfigs.orders("Another"), null, PreviewStatus.PENDING, NOW, NOW.plus(Duration.ofHours(1)))));
    }

    @Test
    void aRejectionWithItsAnswerLostRejectsAndAnswersTheRejectedPreview() {
        DynamoPreviewStore previews = new DynamoPreviewStore(viaProxy, table("PreviewsTable"));
        PendingPreview p = previews.save(preview("c1"));
        next("UpdateItem", "PreviewsTable", Fault.LOSE_ANSWER, 1);
        PendingPreview rejected = previews.reject(owner, p.previewId(), NOW.plusSeconds(1));
        assertFaulted("UpdateItem", 1);
        assertEquals(PreviewStatus.REJECTED, rejected.status());
        assertEquals(p.previewId(), rejected.previewId());
        // a second rejection is another request: refused as before
        PreviewNotPendingException again = assertThrows(PreviewNotPendingException.class,
                () -> previews.reject(owner, p.previewId(), NOW.plusSeconds(2)));
        assertTrue(again.getMessage().contains("rejected"), again.getMessage());
    }

    @ParameterizedTest
    @EnumSource(value = Fault.class, names = {"LOSE_ANSWER", "THROTTLING", "INTERNAL_ERROR"})
    void anAcceptanceUnderAFaultWritesOneVersionAndAcceptsThePreview(Fault fault) {
        DynamoConfigStore configs = new DynamoConfigStore(viaProxy, table("ConfigsTable"));
        DynamoPreviewStore previews = new DynamoPreviewStore(viaProxy, table("PreviewsTable"));
        StoredConfig base = configs.create(owner, SampleConfigs.orders("Accepted " + fault), NOW);
        PendingPreview p = previews.save(PendingPreview.create(owner, "c1", base.configId(), 1L, "next",
                SampleConfigs.describe(base.config(), "next"), null, NOW, Duration.ofHours(1)));
        next("TransactWriteItems", "ConfigsTable", fault, fault == Fault.LOSE_ANSWER ? 1 : 3);
        StoredConfig accepted = new DynamoPreviewAcceptance(configs, previews).accept(p, NOW.plusSeconds(1));
        assertFaulted("TransactWriteItems", fault == Fault.LOSE_ANSWER ? 1 : 3);
        assertEquals(2, accepted.version());
        assertEquals(2, configs.get(owner, base.configId()).orElseThrow().version(), "one version, not two");
        assertEquals(2, configs.versions(owner, base.configId(), 10, null).items().size());
        assertEquals(PreviewStatus.ACCEPTED, previews.find(owner, p.previewId()).orElseThrow().status());
    }

    // ---- configs, by a tool call's key ----

    @Test
    void aConfigCreatedOrUpdatedTwiceByOneCallIsWrittenOnceAndAnsweredTheSame() {
        DynamoConfigStore configs = new DynamoConfigStore(viaProxy, table("ConfigsTable"));
        next("TransactWriteItems", "ConfigsTable", Fault.LOSE_ANSWER, 1);
        StoredConfig created = configs.create(owner, SampleConfigs.orders("Keyed"), NOW, "call-a");
        StoredConfig again = configs.create(owner, SampleConfigs.orders("Keyed"), NOW.plusSeconds(1), "call-a");
        assertEquals(created.configId(), again.configId());
        assertEquals(1, again.version());
        assertEquals(1, configs.list(owner, 10, null).items().size());
        assertThrows(ConfigNameTakenException.class, () -> configs.create(owner, SampleConfigs.orders("Keyed"), NOW, "call-b"));

        StoredConfig updated = configs.update(owner, created.configId(), 1, SampleConfigs.describe(created.config(), "v2"), NOW, "call-c");
        StoredConfig updatedAgain = configs.update(owner, created.configId(), 1, SampleConfigs.describe(created.config(), "v2"), NOW, "call-c");
        assertEquals(2, updated.version());
        assertEquals(2, updatedAgain.version());
        assertEquals(2, configs.versions(owner, created.configId(), 10, null).items().size(), "one version per call");
        assertThrows(VersionConflictException.class,
                () -> configs.update(owner, created.configId(), 1, SampleConfigs.describe(created.config(), "v2"), NOW, "call-d"));
    }

    // ---- input requests and saved values ----

    private InputRequest request(String conversation, String call) {
        return new InputRequest(owner, conversation, call, "search_database_schema", "which database",
                List.of(new InputField("database", "Database", null, FieldType.TEXT, true, null, null, null, null, null, null)),
                false, ValueScope.USER, RequestStatus.PENDING, Map.of(), NOW, null, NOW.plus(Duration.ofMinutes(30)));
    }

    @Test
    void inputRequestsCreatedCancelledAndAnsweredWithTheirAnswersLostHappenOnce() {
        DynamoDbInputRequestStore requests = new DynamoDbInputRequestStore(viaProxy, table("UserInputTable"), Duration.ofDays(1));
        InputRequest created = request("c1", "call_1");
        next("TransactWriteItems", "UserInputTable", Fault.LOSE_ANSWER, 1);
        requests.create(created, NOW.plus(Duration.ofDays(1)));
        assertFaulted("TransactWriteItems", 1);
        assertEquals(RequestStatus.PENDING, requests.find(owner, "c1", "call_1").orElseThrow().status());

        next("UpdateItem", "UserInputTable", Fault.LOSE_ANSWER, 1);
        requests.cancel(created, NOW.plusSeconds(1));
        assertFaulted("UpdateItem", 1);
        assertEquals(RequestStatus.CANCELLED, requests.find(owner, "c1", "call_1").orElseThrow().status());
        assertThrows(InputRequestConflictException.class, () -> requests.cancel(created, NOW.plusSeconds(2)), "a second cancel is refused");

        InputRequest answered = request("c1", "call_2");
        requests.create(answered, NOW.plus(Duration.ofDays(1)));
        next("TransactWriteItems", "UserInputTable", Fault.LOSE_ANSWER, 1);
        requests.complete(answered, Map.of("database", "warehouse"),
                List.of(new SavedValue("database", "warehouse", false, ValueScope.USER, "search_database_schema", "call_2", NOW, null)),
                NOW.plusSeconds(3));
        assertFaulted("TransactWriteItems", 2);
        assertEquals(RequestStatus.COMPLETED, requests.find(owner, "c1", "call_2").orElseThrow().status());
        assertThrows(InputRequestConflictException.class, () -> requests.complete(answered, Map.of("database", "other"), List.of(),
                NOW.plusSeconds(4)), "a second answer is refused");

        DynamoDbSavedValuesStore values = new DynamoDbSavedValuesStore(viaProxy, table("UserInputTable"));
        assertEquals("warehouse", values.userValues(owner, NOW.plusSeconds(5)).getFirst().value());
        next("DeleteItem", "UserInputTable", Fault.LOSE_ANSWER, 1);
        assertTrue(values.clearUserValue(owner, "database"), "cleared, though its answer was lost");
        assertFaulted("DeleteItem", 1);
        assertTrue(values.userValues(owner, NOW.plusSeconds(6)).isEmpty());
        assertFalse(values.clearUserValue(owner, "database"), "nothing left to clear");
    }

    // ---- conversations ----

    /** Lets {@code before} puts on the conversations' table through, then loses the next one's answer. */
    private void loseThePutAfter(int before) {
        proxy.heal();
        if (before > 0) {
            proxy.delay("PutItem", table("ConversationsTable"), Duration.ZERO, before);
        }
        next("PutItem", "ConversationsTable", Fault.LOSE_ANSWER, 1);
    }

    @Test
    void aConversationsCreationItsTurnsItsRenameAndItsDeleteWithTheirAnswersLostHappenOnce() {
        DynamoConversationStore conversations = new DynamoConversationStore(viaProxy, table("ConversationsTable"), Duration.ofDays(90));
        loseThePutAfter(1); // the body's part goes through, the new conversation's item (attribute_not_exists) is lost
        conversations.saveTurn(owner, "c1", new ConversationTurn(List.of(SampleMessages.user("u1", "hello"),
                SampleMessages.assistant("a1", "hi")), Optional.empty(), "hello"), NOW);
        assertFaulted("PutItem", 1);
        assertEquals(List.of("u1", "a1"), conversations.find(owner, "c1").orElseThrow().messages().stream().map(StoredMessage::id).toList());

        for (int turn = 2; turn <= 3; turn++) { // the body part's answer lost, then the conversation item's (revision = n)
            loseThePutAfter(turn - 2);
            conversations.saveTurn(owner, "c1", new ConversationTurn(List.of(SampleMessages.user("u" + turn, "more"),
                    SampleMessages.assistant("a" + turn, "ok")), Optional.empty(), null), NOW.plusSeconds(turn));
            assertFaulted("PutItem", turn);
        }
        assertEquals(List.of("u1", "a1", "u2", "a2", "u3", "a3"),
                conversations.find(owner, "c1").orElseThrow().messages().stream().map(StoredMessage::id).toList(),
                "every turn stored once, the conversation readable");

        next("UpdateItem", "ConversationsTable", Fault.LOSE_ANSWER, 1);
        assertTrue(conversations.rename(owner, "c1", "renamed", NOW.plusSeconds(10)));
        assertEquals("renamed", conversations.find(owner, "c1").orElseThrow().summary().title());

        next("DeleteItem", "ConversationsTable", Fault.LOSE_ANSWER, 1);
        assertTrue(conversations.delete(owner, "c1"), "deleted, though its answer was lost");
        assertTrue(proxy.faultedCalls("DeleteItem") >= 1);
        assertTrue(conversations.find(owner, "c1").isEmpty());
        assertFalse(conversations.delete(owner, "c1"), "a second delete finds nothing");
    }

    // ---- tool approvals ----

    @Test
    void anApprovalIssuedClaimedAndSettledWithTheirAnswersLostMovesOnce() {
        DynamoToolApprovalStore approvals = new DynamoToolApprovalStore(viaProxy, table("ConversationsTable"), Duration.ofDays(1));
        IssuedApproval issued = new IssuedApproval("c1", "ap_1", "m1", "call_1", "accept_preview", "{}", "prv_1",
                IssuedApproval.Status.REQUESTED, null, NOW, null);
        next("PutItem", "ConversationsTable", Fault.LOSE_ANSWER, 1);
        approvals.issue(owner, issued);
        assertFaulted("PutItem", 1);
        assertThrows(IllegalStateException.class, () -> approvals.issue(owner, issued), "the same approval id issued by another request");

        next("UpdateItem", "ConversationsTable", Fault.LOSE_ANSWER, 1);
        assertTrue(approvals.claim(owner, "c1", "ap_1", NOW.plusSeconds(1), NOW.minusSeconds(60)), "claimed, though its answer was lost");
        assertFalse(approvals.claim(owner, "c1", "ap_1", NOW.plusSeconds(2), NOW.minusSeconds(60)), "a second answer finds it claimed");

        next("UpdateItem", "ConversationsTable", Fault.LOSE_ANSWER, 1);
        approvals.settle(owner, "c1", "ap_1", IssuedApproval.Status.APPROVED, "{\"ok\":true}");
        assertFaulted("UpdateItem", 2);
        IssuedApproval settled = approvals.find(owner, "c1", "ap_1").orElseThrow();
        assertEquals(IssuedApproval.Status.APPROVED, settled.status());
        assertEquals("{\"ok\":true}", settled.outcomeJson());

        approvals.issue(owner, new IssuedApproval("c1", "ap_2", "m2", "call_2", "accept_preview", "{}", "prv_2",
                IssuedApproval.Status.REQUESTED, null, NOW, null));
        next("UpdateItem", "ConversationsTable", Fault.LOSE_ANSWER, 1);
        assertTrue(approvals.supersede(owner, "c1", "ap_2"));
        assertFalse(approvals.supersede(owner, "c1", "ap_2"), "superseded once");
    }

    // ---- MCP sessions and the turn-stream log ----

    @Test
    void anMcpSessionCreatedAndDeletedWithTheirAnswersLostHappensOnce() {
        DynamoMcpSessionStore sessions = new DynamoMcpSessionStore(viaProxy, table("McpSessionsTable"));
        McpSession session = new McpSession("s-" + UUID.randomUUID(), owner, "2025-06-18", JsonNodeFactory.instance.objectNode(),
                "client", NOW, NOW.plus(Duration.ofHours(1)));
        next("PutItem", "McpSessionsTable", Fault.LOSE_ANSWER, 1);
        sessions.create(session);
        assertFaulted("PutItem", 1);
        assertThrows(IllegalStateException.class, () -> sessions.create(session), "the id taken by another request");
        assertFalse(sessions.delete("intruder", session.sessionId()), "another owner deletes nothing");

        next("DeleteItem", "McpSessionsTable", Fault.LOSE_ANSWER, 1);
        assertTrue(sessions.delete(owner, session.sessionId()), "deleted, though its answer was lost");
        assertFaulted("DeleteItem", 1);
        assertTrue(sessions.find(session.sessionId()).isEmpty());
        assertFalse(sessions.delete(owner, session.sessionId()));
    }

    @ParameterizedTest
    @EnumSource(value = Fault.class, names = {"LOSE_ANSWER", "THROTTLING", "INTERNAL_ERROR", "RESET"})
    void theTurnStreamLogsWritesUnderAFaultAnswerAsWithoutIt(Fault fault) {
        DynamoTurnStreamLog log = new DynamoTurnStreamLog(viaProxy, table("TurnStreamsTable"), Duration.ofHours(1));
        int times = fault == Fault.LOSE_ANSWER || fault == Fault.RESET ? 1 : 3;
        proxy.fail("*", table("TurnStreamsTable"), fault, times);
        log.open(owner, "c1", "s1", NOW);
        proxy.fail("*", table("TurnStreamsTable"), fault, times);
        log.append(owner, "c1", "s1", new TurnStreamLog.Batch(0, "e0", 1, false), NOW);
        proxy.fail("*", table("TurnStreamsTable"), fault, times);
        assertTrue(log.requestStop(owner, "c1"));
        proxy.fail("*", table("TurnStreamsTable"), fault, times);
        log.close(owner, "c1", "s1");
        assertTrue(log.active(owner, "c1").isEmpty(), "the marker is released");
        assertEquals(List.of(new TurnStreamLog.Batch(0, "e0", 1, false)), log.read(owner, "c1", "s1", 0));
        assertFalse(log.requestStop(owner, "c1"), "no turn runs now");
    }
}
