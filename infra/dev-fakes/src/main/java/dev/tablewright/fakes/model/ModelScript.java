package dev.tablewright.fakes.model;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.json.Json;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The turns the scripted model replays, one per request, in order. Built in Java:
 * <pre>{@code
 * ModelScript.builder()
 *     .turn(t -> t.toolCall("call_1", "search_schema", "{\"query\":", "\"warehouse\"}"))
 *     .error(429, "rate limited", Map.of("Retry-After", "1"))
 *     .turn(t -> t.text("Added ").delay(20).text("the warehouse name.").usage(812, 9))
 *     .build();
 * }</pre>
 * or read from JSON ({@link #fromJson}):
 * <pre>{@code
 * {"turns": [
 *   {"steps": [{"toolCall": {"id": "call_1", "name": "search_schema", "arguments": ["{\"query\":", "\"warehouse\"}"]}}]},
 *   {"error": {"status": 429, "message": "rate limited", "headers": {"Retry-After": "1"}}},
 *   {"steps": [{"text": "Added "}, {"delayMs": 20}, {"text": "the warehouse name."}], "usage": {"prompt": 812, "completion": 9}},
 *   {"steps": [{"text": "par"}, {"cut": true}]},
 *   {"disconnect": true}
 * ]}
 * }</pre>
 * A step object may also be {@code {"toolCallStart": {"index":0,"id":..,"name":..}}},
 * {@code {"toolArguments": {"index":0,"fragment":..}}}, {@code {"waitFor": "signal"}} or
 * {@code {"streamException": {"type": "modelStreamErrorException", "message": ..}}}; a turn may set
 * {@code "finishReason"}.
 */
public record ModelScript(List<ScriptedTurn> turns) {

    public ModelScript {
        turns = List.copyOf(turns);
    }

    public static Builder builder() {
        return new Builder();
    }

    public static ModelScript fromJson(Path file) throws IOException {
        return fromJson(Files.readString(file));
    }

    public static ModelScript fromJson(String json) throws IOException {
        JsonNode root = Json.parse(json);
        JsonNode turns = root.isArray() ? root : root.path("turns");
        if (!turns.isArray()) {
            throw new IOException("a model script is {\"turns\": [...]} or an array of turns");
        }
        List<ScriptedTurn> out = new ArrayList<>();
        for (JsonNode turn : turns) {
            out.add(turnFromJson(turn, out.size()));
        }
        return new ModelScript(out);
    }

    private static ScriptedTurn turnFromJson(JsonNode turn, int position) throws IOException {
        if (turn.path("disconnect").asBoolean(false)) {
            return new ScriptedTurn.Disconnect();
        }
        if (turn.has("error")) {
            JsonNode error = turn.get("error");
            Map<String, String> headers = new LinkedHashMap<>();
            error.path("headers").properties().forEach(e -> headers.put(e.getKey(), e.getValue().asText()));
            if (error.has("retryAfter")) {
                headers.put("Retry-After", error.get("retryAfter").asText());
            }
            return new ScriptedTurn.HttpError(error.path("status").asInt(500), error.path("message").asText("scripted error"), headers);
        }
        TurnBuilder builder = new TurnBuilder();
        for (JsonNode step : turn.path("steps")) {
            if (step.has("text")) {
                builder.text(step.get("text").asText());
            } else if (step.has("toolCall")) {
                JsonNode call = step.get("toolCall");
                List<String> fragments = new ArrayList<>();
                JsonNode arguments = call.path("arguments");
                if (arguments.isArray()) {
                    arguments.forEach(f -> fragments.add(f.asText()));
                } else if (arguments.isTextual()) {
                    fragments.add(arguments.asText());
                } else if (!arguments.isMissingNode()) {
                    fragments.add(Json.write(arguments));
                }
                builder.toolCall(call.path("id").asText(), call.path("name").asText(), fragments.toArray(String[]::new));
            } else if (step.has("toolCallStart")) {
                JsonNode call = step.get("toolCallStart");
                builder.toolCallStart(call.path("index").asInt(), call.path("id").asText(), call.path("name").asText());
            } else if (step.has("toolArguments")) {
                JsonNode fragment = step.get("toolArguments");
                builder.toolArguments(fragment.path("index").asInt(), fragment.path("fragment").asText());
            } else if (step.has("delayMs")) {
                builder.delay(step.get("delayMs").asLong());
            } else if (step.has("waitFor")) {
                builder.waitFor(step.get("waitFor").asText());
            } else if (step.path("cut").asBoolean(false)) {
                builder.cut();
            } else if (step.has("streamException")) {
                JsonNode exception = step.get("streamException");
                builder.streamException(exception.path("type").asText("modelStreamErrorException"),
                        exception.path("message").asText("scripted stream exception"));
            } else {
                throw new IOException("turn " + position + ": unknown step " + step);
            }
        }
        if (turn.has("usage")) {
            builder.usage(turn.get("usage").path("prompt").asInt(), turn.get("usage").path("completion").asInt());
        }
        if (turn.hasNonNull("finishReason")) {
            builder.finishReason(turn.get("finishReason").asText());
        }
        return builder.build();
    }

    /** Builds a script turn by turn. */
    public static final class Builder {
        private final List<ScriptedTurn> turns = new ArrayList<>();

        public Builder turn(Consumer<TurnBuilder> steps) {
            TurnBuilder builder = new TurnBuilder();
            steps.accept(builder);
            turns.add(builder.build());
            return this;
        }

        /** A turn that only says {@code text}, in one delta. */
        public Builder say(String text) {
            return turn(t -> t.text(text));
        }

        public Builder error(int status, String message) {
            return error(status, message, Map.of());
        }

        public Builder error(int status, String message, Map<String, String> headers) {
            turns.add(new ScriptedTurn.HttpError(status, message, headers));
            return this;
        }

        public Builder disconnect() {
            turns.add(new ScriptedTurn.Disconnect());
            return this;
        }

        public Builder add(ScriptedTurn turn) {
            turns.add(turn);
            return this;
        }

        public ModelScript build() {
            return new ModelScript(turns);
        }
    }

    /** The steps of one completion. */
    public static final class TurnBuilder {
        private final List<ScriptedTurn.Step> steps = new ArrayList<>();
        private int nextToolIndex;
        private String finishReason;
        private ScriptedTurn.Usage usage;

        /** One text delta per argument. */
        public TurnBuilder text(String... deltas) {
            for (String delta : deltas) {
                steps.add(new ScriptedTurn.Step.Text(delta));
            }
            return this;
        }

        /** A whole tool call: its start, then one chunk per argument fragment. */
        public TurnBuilder toolCall(String id, String name, String... argumentFragments) {
            int index = nextToolIndex;
            toolCallStart(index, id, name);
            for (String fragment : argumentFragments) {
                toolArguments(index, fragment);
            }
            return this;
        }

        public TurnBuilder toolCallStart(int index, String id, String name) {
            steps.add(new ScriptedTurn.Step.ToolCallStart(index, id, name));
            nextToolIndex = Math.max(nextToolIndex, index + 1);
            return this;
        }

        public TurnBuilder toolArguments(int index, String fragment) {
            steps.add(new ScriptedTurn.Step.ToolArguments(index, fragment));
            return this;
        }

        public TurnBuilder delay(long millis) {
            steps.add(new ScriptedTurn.Step.Delay(millis));
            return this;
        }

        public TurnBuilder waitFor(String signal) {
            steps.add(new ScriptedTurn.Step.WaitFor(signal));
            return this;
        }

        public TurnBuilder cut() {
            steps.add(new ScriptedTurn.Step.Cut());
            return this;
        }

        /** An error reported inside the stream, which then ends (Bedrock's exception frame). */
        public TurnBuilder streamException(String type, String message) {
            steps.add(new ScriptedTurn.Step.StreamException(type, message));
            return this;
        }

        public TurnBuilder usage(int promptTokens, int completionTokens) {
            usage = new ScriptedTurn.Usage(promptTokens, completionTokens);
            return this;
        }

        public TurnBuilder finishReason(String reason) {
            finishReason = reason;
            return this;
        }

        ScriptedTurn.Completion build() {
            return new ScriptedTurn.Completion(steps, finishReason, usage);
        }
    }
}
