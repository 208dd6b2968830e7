package dev.tablewright.fakes.model;

import java.util.List;
import java.util.Map;

/** What the scripted model does with one request: a completion (streamed or not), an HTTP error, or a hang-up. */
public sealed interface ScriptedTurn {

    /**
     * A completion made of steps, replayed in order. In a streamed answer every content step is one
     * {@code chat.completion.chunk}; a non-streamed answer gathers them into one {@code chat.completion}.
     *
     * @param finishReason null: {@code tool_calls} if the turn calls a tool, else {@code stop}
     * @param usage        null: no usage (a streamed answer sends it only when the request asks, as OpenAI does)
     */
    record Completion(List<Step> steps, String finishReason, Usage usage) implements ScriptedTurn {
        public Completion {
            steps = List.copyOf(steps);
        }

        public boolean callsTools() {
            return steps.stream().anyMatch(s -> s instanceof Step.ToolCallStart);
        }
    }

    /** An HTTP error before any byte of an answer, e.g. 429 with {@code Retry-After}, or 500. */
    record HttpError(int status, String message, Map<String, String> headers) implements ScriptedTurn {
        public HttpError {
            headers = Map.copyOf(headers);
        }
    }

    /** Reads the request, then drops the connection without answering. */
    record Disconnect() implements ScriptedTurn {
    }

    record Usage(int promptTokens, int completionTokens) {
    }

    /** One step of a completion. */
    sealed interface Step {
        /** A piece of the assistant's text. */
        record Text(String delta) implements Step {
        }

        /** The model starts calling a tool: the chunk carries the call's index, id and function name. */
        record ToolCallStart(int index, String id, String name) implements Step {
        }

        /** A fragment of a tool call's arguments (JSON text, split anywhere). */
        record ToolArguments(int index, String fragment) implements Step {
        }

        /** A step that only waits: the server plays it with {@link ScriptedModel#pause}. */
        sealed interface Pause extends Step {
        }

        /** Waits before the next step (a slow model). A delay before any content also delays the response headers. */
        record Delay(long millis) implements Pause {
        }

        /** Waits until the test calls {@link ScriptedModel#release(String)} (at most a minute). */
        record WaitFor(String signal) implements Pause {
        }

        /** Drops the connection here: the stream is cut mid-answer, without a finish chunk or {@code [DONE]}. */
        record Cut() implements Step {
        }

        /**
         * The provider reports an error inside the stream and ends it: on Bedrock an exception frame
         * ({@code modelStreamErrorException}, {@code throttlingException}, ...); the OpenAI-compatible server has no such
         * frame and cuts the stream as {@link Cut} does.
         */
        record StreamException(String type, String message) implements Step {
        }
    }
}
