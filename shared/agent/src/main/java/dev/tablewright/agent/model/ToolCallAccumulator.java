package dev.tablewright.agent.model;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The tool calls of one streamed step, as their pieces arrive, for every provider: each call by the index the
 * provider gives it, its id and name (either may come after the first arguments), its arguments a fragment at a time.
 * A call is announced to the listener once its name is known, with the arguments that came before it; every later
 * fragment is passed on as it comes.
 */
public final class ToolCallAccumulator {

    private final ModelStreamListener listener;
    private final Map<Object, Partial> calls = new LinkedHashMap<>();

    public ToolCallAccumulator(ModelStreamListener listener) {
        this.listener = listener;
    }

    /** Whether a call with this index has begun. */
    public boolean has(Object index) {
        return calls.containsKey(index);
    }

    /** How many calls have begun. */
    public int size() {
        return calls.size();
    }

    /**
     * What is known of the call's identity: its id (the first given wins) and its name (likewise), either null when
     * this piece does not carry it.
     */
    public void identify(Object index, String id, String name) throws IOException {
        Partial call = calls.computeIfAbsent(index, i -> new Partial());
        if (call.id == null && id != null) {
            call.id = id;
        }
        if (call.name == null && name != null) {
            call.name = name;
        }
        if (!call.announced && call.id != null && call.name != null) {
            call.announced = true;
            listener.toolCallStarted(call.id, call.name);
            if (!call.arguments.isEmpty()) {
                listener.toolCallArgumentsDelta(call.id, call.arguments.toString());
            }
        }
    }

    /** A fragment of the call's arguments (a call not begun yet begins here). */
    public void arguments(Object index, String fragment) throws IOException {
        if (fragment == null || fragment.isEmpty()) {
            return;
        }
        Partial call = calls.computeIfAbsent(index, i -> new Partial());
        call.arguments.append(fragment);
        if (call.announced) {
            listener.toolCallArgumentsDelta(call.id, fragment);
        }
    }

    /** The step's calls in the order they began; a call whose arguments never came has {@code noArguments}. */
    public List<ToolCallRequest> calls(String noArguments) {
        List<ToolCallRequest> out = new ArrayList<>();
        for (Partial c : calls.values()) {
            out.add(new ToolCallRequest(c.id, c.name, c.arguments.isEmpty() ? noArguments : c.arguments.toString()));
        }
        return out;
    }

    private static final class Partial {
        String id;
        String name;
        boolean announced;
        final StringBuilder arguments = new StringBuilder();
    }
}
