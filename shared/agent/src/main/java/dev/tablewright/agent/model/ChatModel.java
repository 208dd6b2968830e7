package dev.tablewright.agent.model;

import java.io.IOException;

/** A streaming chat-completions model with tools. One call is one attempt: retries belong to the caller. */
public interface ChatModel {

    /**
     * Streams one step to {@code listener} and answers it whole.
     *
     * @throws ModelFailure the model failed (or the deadline passed) before the step was complete
     * @throws IOException  the listener failed (the client disconnected); the model's stream is closed
     */
    ModelStep stream(ModelRequest request, ModelStreamListener listener) throws ModelFailure, IOException;
}
