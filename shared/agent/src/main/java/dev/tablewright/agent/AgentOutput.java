package dev.tablewright.agent;

/** Where a turn's events go, and whether anybody still listens: the loop's one port to whoever asked. */
public interface AgentOutput {

    void emit(AgentEvent event);

    /** Nobody listens any more: stop paying for the model. */
    boolean clientGone();

    /** Runs {@code callback} when the listener goes away (at once if it already has). */
    void onClientGone(Runnable callback);
}
