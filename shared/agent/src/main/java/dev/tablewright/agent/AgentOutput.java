package dev.tablewright.agent;

/** Where a turn's events go, whether anybody still listens, and whether the turn was asked to stop: the loop's one port to whoever asked. */
public interface AgentOutput {

    void emit(AgentEvent event);

    /** Nobody listens any more and nothing keeps the answer: stop paying for the model. */
    boolean clientGone();

    /** Runs {@code callback} when the listener goes away (at once if it already has). */
    void onClientGone(Runnable callback);

    /** The turn was asked to stop: it ends now ({@link StopReason#USER_STOPPED}), keeping what was said. */
    default boolean stopRequested() {
        return false;
    }

    /** Runs {@code callback} when a stop is requested (at once if it already was): it cancels the model's request. */
    default void onStopRequested(Runnable callback) {
    }
}
