package dev.tablewright.agent.model;

import java.io.IOException;

/**
 * Receives a step as the model writes it, so the client sees text and tool calls forming. An
 * {@link IOException} (the client went away) stops the model's stream.
 */
public interface ModelStreamListener {

    void textDelta(String delta) throws IOException;

    void toolCallStarted(String toolCallId, String toolName) throws IOException;

    void toolCallArgumentsDelta(String toolCallId, String delta) throws IOException;
}
