package dev.tablewright.agent.testing;

import dev.tablewright.agent.model.ChatModel;
import dev.tablewright.agent.model.ModelFailure;
import dev.tablewright.agent.model.ModelRequest;
import dev.tablewright.agent.model.ModelStep;
import dev.tablewright.agent.model.ModelStreamListener;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * A model that answers each request with the next scripted step, in this JVM (no HTTP): for the tests of the loop
 * and of the doors over it. Every request is kept; a request past the script fails the test.
 */
public final class ScriptedChatModel implements ChatModel {

    /** One step the model is asked for: stream these deltas to the listener, then answer the step (or fail). */
    public interface Step {
        ModelStep run(ModelStreamListener listener) throws ModelFailure, IOException;
    }

    public final Deque<Step> steps = new ArrayDeque<>();
    public final List<ModelRequest> requests = new ArrayList<>();

    @Override
    public ModelStep stream(ModelRequest request, ModelStreamListener listener) throws ModelFailure, IOException {
        requests.add(request);
        if (steps.isEmpty()) {
            throw new AssertionError("the model was asked one step more than scripted");
        }
        return steps.removeFirst().run(listener);
    }
}
