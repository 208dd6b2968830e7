package dev.tablewright.toolassembly;

import dev.tablewright.agent.conversation.ConversationMemory;
import dev.tablewright.conversation.ToolApprovalStore;
import dev.tablewright.door.TurnStreamSettings;
import dev.tablewright.door.TurnStreams;
import dev.tablewright.dynamodb.DynamoConfigStore;
import dev.tablewright.dynamodb.DynamoConversationStore;
import dev.tablewright.dynamodb.DynamoConversations;
import dev.tablewright.dynamodb.DynamoMcpSessionStore;
import dev.tablewright.dynamodb.DynamoPreviewAcceptance;
import dev.tablewright.dynamodb.DynamoPreviewStore;
import dev.tablewright.dynamodb.DynamoToolApprovalStore;
import dev.tablewright.dynamodb.DynamoTurnStreamLog;
import dev.tablewright.lambda.Tables;
import dev.tablewright.mcpsession.McpSessionStore;
import dev.tablewright.preview.PreviewDecisions;
import dev.tablewright.preview.PreviewStore;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The stores a door needs, on the environment's one DynamoDB client, each built once when first asked for: the
 * conversations a turn is kept in (with the configs its draft is resolved against), the stream log of running turns,
 * the decisions a turn leaves to the user (the issued approvals beside the conversations, the previews and their
 * acceptance), and MCP's sessions. A door function takes them from here, so none builds a store itself.
 */
public final class DoorStores {

    private final Map<String, String> env;
    private final Tables tables;
    /** {@code CONVERSATIONS_TABLE}; null: nothing is stored, and a turn is not resumable. */
    private final String conversationsTable;
    private final Supplier<DynamoDbClient> client;
    private ConversationMemory conversations;
    private DynamoPreviewStore previews;
    private PreviewDecisions decisions;
    private Optional<ToolApprovalStore> approvals;

    DoorStores(Map<String, String> env, Supplier<DynamoDbClient> client) {
        this.env = Map.copyOf(env);
        this.tables = Tables.fromEnvironment(env);
        String conversations = env.get("CONVERSATIONS_TABLE");
        this.conversationsTable = conversations == null || conversations.isBlank() ? null : conversations;
        this.client = client;
    }

    public Tables tables() {
        return tables;
    }

    /** The conversations ({@code CONVERSATIONS_TABLE}); {@link ConversationMemory#NONE} without one: nothing is stored. */
    public synchronized ConversationMemory conversations() {
        if (conversations == null) {
            if (conversationsTable == null) {
                conversations = ConversationMemory.NONE;
            } else {
                DynamoDbClient dynamo = client.get();
                DynamoConversationStore store = new DynamoConversationStore(dynamo, conversationsTable, conversationTtl());
                DynamoConfigStore configs = new DynamoConfigStore(dynamo, tables.configs());
                conversations = new ConversationMemory(store, DynamoConversations.service(dynamo, store, configs,
                        tables.userInput(), tables.previews(), Clock.systemUTC()), configs, Clock.systemUTC());
            }
        }
        return conversations;
    }

    /**
     * The stream log of running turns ({@code TURN_STREAMS_TABLE}, {@link TurnStreamSettings}), for turns of at most
     * {@code maxTurn}; {@link TurnStreams#NONE} without it or without a conversation store (a turn that is not stored
     * is not resumable).
     */
    public TurnStreams turnStreams(Duration maxTurn) {
        TurnStreamSettings streams = TurnStreamSettings.fromEnvironment(env);
        if (streams.table() == null || conversationsTable == null) {
            return TurnStreams.NONE;
        }
        return new TurnStreams(new DynamoTurnStreamLog(client.get(), streams.table(), streams.ttl()),
                new TurnStreams.Settings(streams.batching(), streams.readerPoll(), maxTurn), Clock.systemUTC());
    }

    /** The approvals a turn issues, kept beside the conversations; empty without a conversation store. */
    public synchronized Optional<ToolApprovalStore> toolApprovals() {
        if (approvals == null) {
            approvals = conversationsTable == null ? Optional.empty()
                    : Optional.of(new DynamoToolApprovalStore(client.get(), conversationsTable, conversationTtl()));
        }
        return approvals;
    }

    /** The pending previews ({@code PREVIEWS_TABLE}). */
    public synchronized PreviewStore previews() {
        if (previews == null) {
            previews = new DynamoPreviewStore(client.get(), tables.previews());
        }
        return previews;
    }

    /** A preview kept or dropped, as {@code POST /previews/{id}/accept} and {@code …/reject} do. */
    public synchronized PreviewDecisions previewDecisions() {
        if (decisions == null) {
            previews();
            decisions = new PreviewDecisions(previews, new DynamoPreviewAcceptance(new DynamoConfigStore(client.get(), tables.configs()), previews));
        }
        return decisions;
    }

    /** MCP's sessions ({@code MCP_SESSIONS_TABLE}). */
    public McpSessionStore mcpSessions() {
        return new DynamoMcpSessionStore(client.get(), tables.mcpSessions());
    }

    private Duration conversationTtl() {
        return DynamoConversations.ttl(env.get("CONVERSATION_TTL_DAYS"));
    }
}
