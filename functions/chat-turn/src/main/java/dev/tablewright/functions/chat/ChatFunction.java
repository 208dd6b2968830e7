package dev.tablewright.functions.chat;

import dev.tablewright.chat.ChatTurn;
import dev.tablewright.chat.TurnLimits;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.chat.conversation.ConversationMemory;
import dev.tablewright.chat.model.ChatModel;
import dev.tablewright.chat.stream.UiMessageAssembler;
import dev.tablewright.store.StoreUnavailableException;
import dev.tablewright.openai.ModelSettings;
import dev.tablewright.openai.LoopbackModelPriming;
import dev.tablewright.openai.OpenAiChatModel;
import dev.tablewright.openai.SecretsManagerApiKeySource;
import dev.tablewright.chat.request.BadChatRequest;
import dev.tablewright.chat.request.ChatRequest;
import dev.tablewright.chat.request.ChatRequestParser;
import dev.tablewright.chat.stream.HttpResponseStream;
import dev.tablewright.chat.stream.UiMessageStreamWriter;
import dev.tablewright.invoke.LambdaToolInvoker;
import dev.tablewright.chat.tools.ToolInvoker;
import dev.tablewright.chat.tools.UserInputLifecycle;
import dev.tablewright.chat.tools.UserInputPort;
import dev.tablewright.dynamodb.DynamoConfigStore;
import dev.tablewright.dynamodb.DynamoConversationStore;
import dev.tablewright.dynamodb.DynamoConversations;
import dev.tablewright.dynamodb.DynamoDbClients;
import dev.tablewright.dynamodb.DynamoDbInputRequestStore;
import dev.tablewright.dynamodb.DynamoDbSavedValuesStore;
import dev.tablewright.userinput.InputRequestService;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import dev.tablewright.json.Json;
import dev.tablewright.lambda.Env;
import dev.tablewright.jwt.JwtVerifier;
import dev.tablewright.logging.StructuredLog;
import dev.tablewright.tools.DataSourceSelection;
import dev.tablewright.tools.ToolBundle;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The chat function's handler (named in {@code _HANDLER}): decodes the function URL event, answers a malformed
 * request with a 400 naming the field, and runs a {@link ChatTurn} into a UI message stream.
 * The no-argument constructor is the init phase: it wires the model, the tool invoker and the limits from the
 * environment once per execution environment.
 */
public final class ChatFunction implements ChatTurnHandler {

    private static final StructuredLog LOG = StructuredLog.of(ChatFunction.class);

    private final ChatRequestParser parser = new ChatRequestParser();
    private final ChatTurn turn;
    private final ConversationMemory memory;
    private final Function<JsonNode, String> callerIdentity;
    private final Supplier<Optional<Instant>> invocationDeadline;

    public ChatFunction() {
        this(Env.all());
        // SnapStart: the first turn's request decoding and stream writing are loaded and warmed into the snapshot
        // (nothing external is called: no model, no token check, no table)
        dev.tablewright.lambda.Priming.register("chat", this::prime);
    }

    /**
     * What a restored function would otherwise load on its first turn: the request decoding and stream writing,
     * a JWT verification (a throwaway key; no JWKS fetch) and a streamed model completion (a canned answer from
     * the loopback interface; no model is called).
     */
    void prime() {
        try {
            parser.parse(PRIMING_REQUEST);
        } catch (BadChatRequest e) {
            throw new IllegalStateException(e);
        }
        UiMessageStreamWriter ui = new UiMessageStreamWriter(new dev.tablewright.chat.stream.InMemoryResponseStream());
        ui.observe(new UiMessageAssembler());
        ui.start("msg_priming", Json.object().put("conversationId", "priming"));
        ui.textStart("t");
        ui.textDelta("t", "primed");
        ui.textEnd("t");
        ui.finish(UiMessageStreamWriter.FinishReason.STOP, null);
        ui.done();
        Map<String, String> env = Env.all();
        JwtVerifier.fromEnvironment(env).prime();
        try {
            LoopbackModelPriming.run(env.getOrDefault("OPENAI_MODEL", ModelSettings.DEFAULT_MODEL));
        } catch (java.io.IOException | dev.tablewright.chat.model.ModelFailure e) {
            throw new IllegalStateException("model priming failed: " + e.getMessage(), e);
        }
    }

    private static final String PRIMING_REQUEST = "{\"id\":\"priming\",\"trigger\":\"submit-message\",\"messages\":[{\"id\":\"m1\","
            + "\"role\":\"user\",\"parts\":[{\"type\":\"text\",\"text\":\"hello\"}]}],\"context\":{\"page\":\"tables\"}}";

    ChatFunction(Map<String, String> env) {
        this(new ChatTurn(new OpenAiChatModel(ModelSettings.fromEnvironment(env, new SecretsManagerApiKeySource())),
                        ToolBundle.registry(DataSourceSelection.namesOf(env.get("DATA_SOURCES"))),
                        new LambdaToolInvoker(LambdaToolInvoker.lambdaClient(env), LambdaToolInvoker.functionsFromEnvironment(env)),
                        userInput(env), TurnLimits.fromEnvironment(env), Clock.systemUTC()),
                conversationMemory(env),
                // The function URL has no authorizer: the caller is the verified JWT's sub, or nobody (401).
                JwtVerifier.fromEnvironment(env)::userIdOf, Optional::empty);
    }

    /**
     * From the environment: {@code CONVERSATIONS_TABLE} (absent: {@link ConversationMemory#NONE}), {@code CONVERSATION_TTL_DAYS}
     * (default 90), and the tables a draft is resolved against ({@code PREVIEWS_TABLE}, {@code CONFIGS_TABLE},
     * {@code USER_INPUT_TABLE}).
     */
    public static ConversationMemory conversationMemory(Map<String, String> env) {
        String table = env.get("CONVERSATIONS_TABLE");
        if (table == null || table.isBlank()) {
            return ConversationMemory.NONE;
        }
        DynamoDbClient dynamo = DynamoDbClients.fromEnvironment(env);
        DynamoConversationStore store = new DynamoConversationStore(dynamo, table,
                DynamoConversations.ttl(env.get("CONVERSATION_TTL_DAYS")));
        DynamoConfigStore configs = new DynamoConfigStore(dynamo, env.getOrDefault("CONFIGS_TABLE", "ConfigsTable"));
        return new ConversationMemory(store, DynamoConversations.service(dynamo, store, configs,
                env.getOrDefault("USER_INPUT_TABLE", "UserInputTable"), env.getOrDefault("PREVIEWS_TABLE", "PreviewsTable"),
                Clock.systemUTC()), configs, Clock.systemUTC());
    }

    /** The user-input lifecycle on the template's UserInputTable, when the function has one. */
    static UserInputPort userInput(Map<String, String> env) {
        String table = env.get("USER_INPUT_TABLE");
        if (table == null || table.isBlank()) {
            return UserInputPort.NONE;
        }
        DynamoDbClient client = DynamoDbClients.fromEnvironment(env);
        InputRequestService.Expiry expiry = InputRequestService.Expiry.DEFAULT;
        return new UserInputLifecycle(new InputRequestService(new DynamoDbInputRequestStore(client, table, expiry.valuesTtl()),
                new DynamoDbSavedValuesStore(client, table), Clock.systemUTC(), expiry));
    }

    /** For tests: every part supplied, with the bundle's tools for one data source. */
    public ChatFunction(ChatModel model, ToolInvoker invoker, UserInputPort userInput, TurnLimits limits,
                        ConversationMemory memory, Function<JsonNode, String> callerIdentity,
                        Supplier<Optional<Instant>> invocationDeadline) {
        this(new ChatTurn(model, ToolBundle.registry(), invoker, userInput, limits, Clock.systemUTC()), memory,
                callerIdentity, invocationDeadline);
    }

    /** A turn with no conversation store: the page's context is all it has. */
    public ChatFunction(ChatTurn turn, Function<JsonNode, String> callerIdentity, Supplier<Optional<Instant>> invocationDeadline) {
        this(turn, ConversationMemory.NONE, callerIdentity, invocationDeadline);
    }

    public ChatFunction(ChatTurn turn, ConversationMemory memory, Function<JsonNode, String> callerIdentity,
                        Supplier<Optional<Instant>> invocationDeadline) {
        this.turn = turn;
        this.memory = memory;
        this.callerIdentity = callerIdentity;
        this.invocationDeadline = invocationDeadline;
    }

    @Override
    public void handle(JsonNode event, HttpResponseStream response) {
        handle(event, response, invocationDeadline.get());
    }

    /** From the streaming runtime: the invocation's deadline bounds the turn, which stops cleanly before it. */
    @Override
    public void handle(JsonNode event, HttpResponseStream response, LambdaInvocation invocation) {
        handle(event, response, invocation.deadlineIfKnown().or(invocationDeadline));
    }

    private void handle(JsonNode event, HttpResponseStream response, Optional<Instant> deadline) {
        String requestId = event.path("requestContext").path("requestId").asText(null);
        StructuredLog.put("requestId", requestId);
        try {
            // The function URL has no authorizer in front: the caller is checked before the body is decoded or
            // parsed, so an anonymous caller learns nothing about the request format and costs no parsing.
            String owner = callerIdentity.apply(event);
            if (owner == null) {
                response.sendJson(401, "{\"error\":{\"message\":\"sign in to use the assistant\"}}".getBytes(StandardCharsets.UTF_8));
                return;
            }
            ChatRequest request;
            ConversationMemory.Prepared prepared;
            try {
                request = parser.parse(body(event));
                if (!turn.pages().contains(request.context().page())) {
                    // an unknown page has no tools and no editable fields: refuse it rather than run a turn that can do nothing
                    throw new BadChatRequest("context.page", "unknown page '" + clip(request.context().page())
                            + "': the assistant serves " + String.join(", ", turn.pages()));
                }
                StructuredLog.put("conversationId", request.id());
                prepared = memory.prepare(owner, request);
            } catch (BadChatRequest e) {
                LOG.info("chat request refused", "field", e.field());
                sendError(response, 400, e.field(), e.getMessage());
                return;
            } catch (ConversationMemory.ConfigNotFound e) {
                sendError(response, 404, "context.configId", e.getMessage());
                return;
            } catch (StoreUnavailableException e) {
                LOG.warn("the conversation store is unavailable", "cause", String.valueOf(e.getMessage()));
                sendError(response, 503, null, "The conversation could not be loaded just now. Please try again.");
                return;
            }
            UiMessageAssembler assistant = prepared.continuing().map(UiMessageAssembler::new).orElseGet(UiMessageAssembler::new);
            UiMessageStreamWriter ui = new UiMessageStreamWriter(response);
            ui.observe(assistant);
            turn.run(prepared.request(), owner, ui, deadline, prepared.draft(),
                    draft -> memory.save(owner, prepared, assistant.message(), draft));
        } finally {
            StructuredLog.clear();
        }
    }

    private static void sendError(HttpResponseStream response, int status, String field, String message) {
        ObjectNode error = Json.object();
        ObjectNode body = error.putObject("error");
        if (field != null) {
            body.put("field", field);
        }
        body.put("message", message);
        response.sendJson(status, Json.write(error).getBytes(StandardCharsets.UTF_8));
    }

    private static String clip(String value) {
        return value.length() <= 40 ? value : value.substring(0, 40) + "…";
    }

    private static String body(JsonNode event) throws BadChatRequest {
        String raw = event.path("body").asText("");
        if (event.path("isBase64Encoded").asBoolean(false)) {
            try {
                raw = new String(Base64.getDecoder().decode(raw), StandardCharsets.UTF_8);
            } catch (IllegalArgumentException e) {
                throw new BadChatRequest("body", "the body is not valid base64");
            }
        }
        if (raw.length() > Json.MAX_DOCUMENT_CHARS) {
            throw new BadChatRequest("body", "the body is larger than " + Json.MAX_DOCUMENT_CHARS / (1024 * 1024) + " MB");
        }
        return raw;
    }

    /**
     * Until the JWT check of the function URL lands: the verified {@code sub} of an authorizer, else the documented
     * development identity.
     */
    static String developmentIdentity(JsonNode event) {
        String sub = event.path("requestContext").path("authorizer").path("jwt").path("claims").path("sub").asText(null);
        return sub != null ? sub : "dev-user";
    }
}
