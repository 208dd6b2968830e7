package dev.tablewright.agent.memory;

import dev.tablewright.agent.model.ModelMessage;
import dev.tablewright.agent.model.ToolCallRequest;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * How much of the conversation the model is sent, and how much of it is kept. The model gets the last
 * {@code verbatimTurns} earlier turns whole (their long tool outputs and arguments elided: the working config is in
 * the system prompt), as long as they fit in {@code maxHistoryChars}, and one digest line for each older turn, at most
 * {@code maxDigestLines} of them; the running turn always goes whole. A tool call and its result are never separated:
 * a call left without a result gets one that says so, and a result without its call is dropped.
 *
 * @param verbatimTurns   earlier turns sent whole
 * @param maxHistoryChars characters of earlier turns sent whole; past it, the oldest of them is sent as its digest
 * @param maxDigestLines  digest lines sent (and kept); older turns are only counted
 * @param maxElidedChars  a tool output or argument of an earlier turn longer than this is replaced by a short note
 */
public record MemoryBudget(int verbatimTurns, int maxHistoryChars, int maxDigestLines, int maxElidedChars) {

    public static final MemoryBudget DEFAULT = new MemoryBudget(4, 24_000, 30, 600);

    /** What the result of an earlier turn's tool call is replaced by when it is too long. */
    public static final String ELIDED_RESULT = "{\"elided\":\"the output of an earlier turn; the working config in the system prompt is current\"}";
    /** What an earlier turn's long tool arguments are replaced by (still a JSON object, as every model API wants). */
    public static final String ELIDED_ARGUMENTS = "{\"elided\":\"the arguments of an earlier turn\"}";
    public static final String NOT_COMPLETED = "{\"error\":\"this tool call was not completed\"}";

    public MemoryBudget {
        if (verbatimTurns < 0 || maxHistoryChars < 0 || maxDigestLines < 0 || maxElidedChars < 0) {
            throw new IllegalArgumentException("memory budget values must not be negative");
        }
    }

    /** What the model is sent of the earlier turns. */
    public record Context(List<String> earlier, int notShown, List<ModelMessage> recent) {
        public Context {
            earlier = List.copyOf(earlier);
            recent = List.copyOf(recent);
        }
    }

    /** The earlier turns as the model sees them this turn. */
    public Context context(Transcript history) {
        List<TranscriptTurn> turns = history.turns();
        int firstVerbatim = turns.size();
        int chars = 0;
        for (int i = turns.size() - 1; i >= 0 && turns.size() - i <= verbatimTurns; i--) {
            TranscriptTurn turn = turns.get(i);
            if (turn.digestOnly()) {
                break;
            }
            int size = chars(elided(turn.messages()));
            if (chars + size > maxHistoryChars) {
                break;
            }
            chars += size;
            firstVerbatim = i;
        }
        List<String> digests = new ArrayList<>();
        int forgotten = 0; // turns compacted away before the digests kept: only counted
        for (int i = 0; i < firstVerbatim; i++) {
            String d = turns.get(i).digest();
            if (d.isBlank()) {
                forgotten++;
            } else {
                digests.add(d);
            }
        }
        int notShown = Math.max(0, digests.size() - maxDigestLines);
        List<ModelMessage> recent = new ArrayList<>();
        for (int i = firstVerbatim; i < turns.size(); i++) {
            recent.addAll(elided(turns.get(i).messages()));
        }
        return new Context(digests.subList(notShown, digests.size()), forgotten + notShown, recent);
    }

    /** The transcript to keep after a turn: the turns the next context may send whole, and digests for the rest. */
    public Transcript compact(Transcript transcript) {
        List<TranscriptTurn> turns = transcript.turns();
        int keepWhole = verbatimTurns + 1;
        int keep = keepWhole + maxDigestLines;
        List<TranscriptTurn> kept = new ArrayList<>();
        for (int i = Math.max(0, turns.size() - keep); i < turns.size(); i++) {
            TranscriptTurn turn = turns.get(i);
            kept.add(turns.size() - i <= keepWhole ? turn : turn.digestOnlyCopy());
        }
        return new Transcript(kept);
    }

    /** An earlier turn's messages with its long outputs and arguments elided, every call paired with its result. */
    List<ModelMessage> elided(List<ModelMessage> messages) {
        List<ModelMessage> out = new ArrayList<>();
        for (ModelMessage m : paired(messages)) {
            out.add(switch (m) {
                case ModelMessage.ToolResult r when r.content().length() > maxElidedChars ->
                        new ModelMessage.ToolResult(r.toolCallId(), ELIDED_RESULT);
                case ModelMessage.Assistant a -> new ModelMessage.Assistant(a.text(), a.toolCalls().stream()
                        .map(c -> c.arguments() != null && c.arguments().length() > maxElidedChars
                                ? new ToolCallRequest(c.id(), c.name(), ELIDED_ARGUMENTS) : c).toList());
                default -> m;
            });
        }
        return out;
    }

    /**
     * Every tool call followed by its result before the next assistant or user message, and no result without its
     * call: the rule every model API enforces.
     */
    public static List<ModelMessage> paired(List<ModelMessage> messages) {
        List<ModelMessage> out = new ArrayList<>();
        Set<String> open = new LinkedHashSet<>();
        Set<String> answered = new HashSet<>();
        for (ModelMessage m : messages) {
            switch (m) {
                case ModelMessage.ToolResult r -> {
                    if (open.remove(r.toolCallId()) && answered.add(r.toolCallId())) {
                        out.add(r);
                    }
                }
                case ModelMessage.System s -> out.add(s);
                default -> {
                    close(open, out);
                    out.add(m);
                    if (m instanceof ModelMessage.Assistant a) {
                        a.toolCalls().forEach(c -> open.add(c.id()));
                    }
                }
            }
        }
        close(open, out);
        return out;
    }

    private static void close(Set<String> open, List<ModelMessage> out) {
        open.forEach(id -> out.add(new ModelMessage.ToolResult(id, NOT_COMPLETED)));
        open.clear();
    }

    static int chars(List<ModelMessage> messages) {
        int n = 0;
        for (ModelMessage m : messages) {
            n += switch (m) {
                case ModelMessage.System s -> s.text().length();
                case ModelMessage.User u -> u.text().length();
                case ModelMessage.ToolResult r -> r.content().length() + r.toolCallId().length();
                case ModelMessage.Assistant a -> a.text().length() + a.toolCalls().stream()
                        .mapToInt(c -> c.name().length() + c.id().length() + (c.arguments() == null ? 0 : c.arguments().length())).sum();
            };
        }
        return n;
    }
}
