package dev.tablewright.agent;

import java.util.ArrayList;
import java.util.List;

/**
 * A request to stop a running turn, raised from another thread (a stop that came through another invocation, a
 * protocol's cancel message) and read by the turn's {@link AgentOutput}. Once raised it stays raised.
 */
public final class StopSignal {

    private final List<Runnable> callbacks = new ArrayList<>();
    private boolean raised;

    /** Raises the signal: the callbacks run once, on the calling thread. */
    public void raise() {
        List<Runnable> toRun;
        synchronized (this) {
            if (raised) {
                return;
            }
            raised = true;
            toRun = List.copyOf(callbacks);
            callbacks.clear();
        }
        toRun.forEach(Runnable::run);
    }

    public synchronized boolean isRaised() {
        return raised;
    }

    /** Runs {@code callback} when the signal is raised (at once if it already is). */
    public void onRaise(Runnable callback) {
        synchronized (this) {
            if (!raised) {
                callbacks.add(callback);
                return;
            }
        }
        callback.run();
    }
}
