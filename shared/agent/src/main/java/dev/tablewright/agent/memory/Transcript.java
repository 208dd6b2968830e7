package dev.tablewright.agent.memory;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The conversation as the agent remembers it, oldest turn first: recent turns whole, older ones as their digest.
 * It belongs to the agent, not to a client protocol: a door builds it from what it stores, and gets it back,
 * compacted, at the end of each turn.
 */
public record Transcript(List<TranscriptTurn> turns) {

    public static final Transcript EMPTY = new Transcript(List.of());

    public Transcript {
        turns = List.copyOf(turns);
    }

    public Optional<TranscriptTurn> find(String key) {
        return key == null ? Optional.empty() : turns.stream().filter(t -> key.equals(t.key())).findFirst();
    }

    public Transcript plus(TranscriptTurn turn) {
        List<TranscriptTurn> all = new ArrayList<>(turns);
        all.add(turn);
        return new Transcript(all);
    }

    public boolean isEmpty() {
        return turns.isEmpty();
    }
}
