package dev.tablewright.openai;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import dev.tablewright.agent.model.FinishReason;
import dev.tablewright.agent.model.ModelFailure;
import dev.tablewright.agent.model.ModelMessage;
import dev.tablewright.agent.model.ModelRequest;
import dev.tablewright.agent.model.ModelStep;
import dev.tablewright.agent.testing.HeardStream;
import dev.tablewright.agent.model.ModelTool;
import dev.tablewright.agent.model.ToolCallRequest;
import dev.tablewright.json.Json;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The OpenAI provider's mapping, with the real openai-java client against a loopback chat-completions endpoint that
 * answers canned server-sent events: the request it sends (messages, tools, streaming with usage), the deltas it
 * hears, the step it returns, and the HTTP errors as the turn's failures.
 */
class OpenAiChatModelTest {

    private HttpServer server;
    private volatile JsonNode received;
    private volatile int status = 200;
    private volatile String answer = "";
    private OpenAiChatModel model;

    @BeforeEach
    void start() throws Exception {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/v1/chat/completions", exchange -> {
            received = Json.parse(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            byte[] body = answer.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("content-type", status == 200 ? "text/event-stream" : "application/json");
            exchange.sendResponseHeaders(status, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        model = new OpenAiChatModel(new ModelSettings("http://127.0.0.1:" + server.getAddress().getPort() + "/v1", "test-model",
                "sk-test", Duration.ofSeconds(10)));
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private static String events(String... chunks) {
        StringBuilder sse = new StringBuilder();
        for (String chunk : chunks) {
            sse.append("data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"test-model\",")
                    .append(chunk).append("}\n\n");
        }
        return sse.append("data: [DONE]\n\n").toString();
    }

    private static ModelRequest request(List<ModelMessage> messages) {
        return new ModelRequest(messages, List.of(new ModelTool("apply_column_change", "Adds a column",
                Json.objectLiteral("{\"type\":\"object\",\"properties\":{}}"))), 256, Instant.now().plusSeconds(30), null);
    }

    @Test
    void aStreamedAnswerIsHeardDeltaByDeltaAndReturnedWithItsUsage() throws Exception {
        answer = events("\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"Hello\"}}]",
                "\"choices\":[{\"index\":0,\"delta\":{\"content\":\" there.\"},\"finish_reason\":\"stop\"}]",
                "\"choices\":[],\"usage\":{\"prompt_tokens\":900,\"completion_tokens\":8,\"total_tokens\":908}");
        HeardStream heard = new HeardStream();
        ModelStep step = model.stream(request(List.of(new ModelMessage.System("be brief"), new ModelMessage.User("hi"))), heard);
        assertEquals("Hello there.", step.text());
        assertEquals(FinishReason.STOP, step.finishReason());
        assertEquals(900, step.usage().promptTokens());
        assertEquals(8, step.usage().completionTokens());
        assertEquals(List.of("text Hello", "text  there."), heard.events);

        assertEquals("test-model", received.path("model").asText());
        assertTrue(received.path("stream").asBoolean());
        assertTrue(received.path("stream_options").path("include_usage").asBoolean(), received.toString());
        assertEquals("system", received.path("messages").path(0).path("role").asText());
        assertEquals("hi", received.path("messages").path(1).path("content").asText());
        assertEquals("apply_column_change", received.path("tools").path(0).path("function").path("name").asText());
    }

    @Test
    void aToolCallIsAssembledFromItsPiecesAndItsHistoryIsSentBack() throws Exception {
        answer = events("\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"call_1\",\"type\":\"function\","
                        + "\"function\":{\"name\":\"apply_column_change\",\"arguments\":\"{\\\"col\"}}]}}]",
                "\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"umn\\\":1}\"}}]},"
                        + "\"finish_reason\":\"tool_calls\"}]");
        HeardStream heard = new HeardStream();
        ModelStep step = model.stream(request(List.of(new ModelMessage.User("add"),
                new ModelMessage.Assistant("", List.of(new ToolCallRequest("call_0", "apply_column_change", "{}"))),
                new ModelMessage.ToolResult("call_0", "{\"valid\":true}"))), heard);
        assertEquals(FinishReason.TOOL_CALLS, step.finishReason());
        assertEquals(List.of(new ToolCallRequest("call_1", "apply_column_change", "{\"column\":1}")), step.toolCalls());
        assertEquals("start call_1 apply_column_change", heard.events.getFirst());

        JsonNode assistant = received.path("messages").path(1);
        assertEquals("call_0", assistant.path("tool_calls").path(0).path("id").asText(), received.toString());
        assertEquals("tool", received.path("messages").path(2).path("role").asText());
        assertEquals("call_0", received.path("messages").path(2).path("tool_call_id").asText());
    }

    @Test
    void httpErrorsAreTheTurnsFailuresAndAStreamWithoutFinishIsCutOff() {
        status = 429;
        answer = "{\"error\":{\"message\":\"Rate limit reached\",\"type\":\"rate_limit_error\"}}";
        ModelFailure limited = assertThrows(ModelFailure.class, () -> model.stream(request(List.of(new ModelMessage.User("hi"))), new HeardStream()));
        assertEquals(ModelFailure.Kind.RATE_LIMITED, limited.kind());
        assertTrue(limited.retryable());

        status = 400;
        answer = "{\"error\":{\"message\":\"bad request\",\"type\":\"invalid_request_error\"}}";
        assertEquals(ModelFailure.Kind.REJECTED, assertThrows(ModelFailure.class,
                () -> model.stream(request(List.of(new ModelMessage.User("hi"))), new HeardStream())).kind());

        status = 200;
        answer = events("\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hal\"}}]");
        ModelFailure cut = assertThrows(ModelFailure.class, () -> model.stream(request(List.of(new ModelMessage.User("hi"))), new HeardStream()));
        assertEquals(ModelFailure.Kind.CUT_OFF, cut.kind());
        assertTrue(cut.afterFirstByte());
    }

    @Test
    void aDeadlineAlreadyPassedIsOutOfTimeWithoutACall() {
        ModelRequest late = new ModelRequest(List.of(new ModelMessage.User("hi")), List.of(), 10, Instant.now().minusSeconds(1), null);
        assertEquals(ModelFailure.Kind.OUT_OF_TIME, assertThrows(ModelFailure.class, () -> model.stream(late, new HeardStream())).kind());
        assertEquals(null, received, "nothing was sent");
    }

    @Test
    void finishReasonsMapAndSettingsMaskTheKey() {
        assertEquals(FinishReason.LENGTH, OpenAiChatModel.finishReason("length"));
        assertEquals(FinishReason.CONTENT_FILTER, OpenAiChatModel.finishReason("content_filter"));
        assertEquals(FinishReason.OTHER, OpenAiChatModel.finishReason("function_call"));
        ModelSettings settings = ModelSettings.fromEnvironment(Map.of("OPENAI_API_KEY", "sk-secret"), ApiKeySource.ENVIRONMENT);
        assertEquals(ModelSettings.DEFAULT_BASE_URL, settings.baseUrl());
        assertFalse(settings.toString().contains("sk-secret"), settings.toString());
        assertEquals("k", SecretsManagerApiKeySource.fromSecret("{\"apiKey\":\"k\"}"));
        assertEquals("plain", SecretsManagerApiKeySource.fromSecret("  plain \n"));
        assertThrows(IllegalStateException.class, () -> SecretsManagerApiKeySource.fromSecret("{\"other\":1}"));
    }
}
