package dev.tablewright.agent.memory;

import dev.tablewright.agent.model.ModelMessage;

import java.util.List;

/**
 * One turn of the agent's transcript: what the model was told and answered in it (the user's message, each
 * assistant step, every tool result), and the one-line digest that stands for it once it is no longer sent whole.
 *
 * @param key      who asked and what answered, as the door names them (e.g. the user's and the assistant's message
 *                 ids): a stored turn is reused only for the same key
 * @param messages the turn's model messages; empty once the turn is kept as its digest only
 * @param digest   the turn in one line: what the user asked, which configs were proposed, previewed, and what was said
 */
public record TranscriptTurn(String key, List<ModelMessage> messages, String digest) {
    public TranscriptTurn {
        messages = List.copyOf(messages);
        digest = digest == null ? "" : digest;
    }

    public boolean digestOnly() {
        return messages.isEmpty();
    }

    public TranscriptTurn withKey(String newKey) {
        return new TranscriptTurn(newKey, messages, digest);
    }

    public TranscriptTurn digestOnlyCopy() {
        return new TranscriptTurn(key, List.of(), digest);
    }
}
