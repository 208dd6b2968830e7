package dev.tablewright.agent.testing;

import dev.tablewright.agent.AgentEvent;
import dev.tablewright.agent.AgentOutput;
import dev.tablewright.agent.StopSignal;

import java.util.ArrayList;
import java.util.List;

/** An agent output that keeps every event, for the tests of the loop: a client that stays, and a stop it can raise. */
public final class RecordedOutput implements AgentOutput {

    public final List<AgentEvent> events = new ArrayList<>();
    public final StopSignal stop = new StopSignal();

    @Override
    public void emit(AgentEvent event) {
        events.add(event);
    }

    @Override
    public boolean clientGone() {
        return false;
    }

    @Override
    public void onClientGone(Runnable callback) {
    }

    @Override
    public boolean stopRequested() {
        return stop.isRaised();
    }

    @Override
    public void onStopRequested(Runnable callback) {
        stop.onRaise(callback);
    }

    /** The events of one type, in order. */
    public <T extends AgentEvent> List<T> of(Class<T> type) {
        return events.stream().filter(type::isInstance).map(type::cast).toList();
    }

    /** The last event, which ends every turn. */
    public AgentEvent.Stopped stopped() {
        return (AgentEvent.Stopped) events.getLast();
    }
}
