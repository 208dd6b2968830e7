package dev.tablewright.agui;

/** A {@code RunAgentInput} the door cannot run: a 400 naming {@code field} and what is wrong with it. */
public final class RunInputRefused extends RuntimeException {

    private final String field;

    public RunInputRefused(String field, String message) {
        super(message);
        this.field = field;
    }

    public String field() {
        return field;
    }
}
