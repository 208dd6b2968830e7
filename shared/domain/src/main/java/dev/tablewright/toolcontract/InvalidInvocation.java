package dev.tablewright.toolcontract;

/** An invocation that cannot reach its tool (malformed, too large, wrong tool): carries the error to answer. */
public final class InvalidInvocation extends Exception {

    private final ToolError error;

    public InvalidInvocation(ToolError error) {
        super(error.message(), null, false, false);
        this.error = error;
    }

    public ToolError error() {
        return error;
    }
}
