package dev.tablewright.chat;

/** Where a turn's events go, and whether anybody is still listening: the loop's one port to its client. */
public interface TurnOutput {

    void emit(TurnEvent event);

    /** The client went away: stop paying for the model. */
    boolean clientGone();

    /** The output was closed (the turn ended). */
    boolean closed();

    /** Ends the output; idempotent. */
    void close();

    /** Runs {@code callback} when the client goes away (at once if it already has). */
    void onClientGone(Runnable callback);
}
