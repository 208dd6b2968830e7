package dev.tablewright.toolcontract;

import dev.tablewright.failure.DomainFailure;
import dev.tablewright.failure.ErrorCode;

/** The one mapping of a domain failure to a tool answer (the codes of docs/errors.md). */
public final class ToolFailures {

    private ToolFailures() {
    }

    public static ToolOutcome outcome(DomainFailure failure) {
        return outcome(failure, "");
    }

    /** @param advice appended to the message: what the model should do next (e.g. which tool to call) */
    public static ToolOutcome outcome(DomainFailure failure, String advice) {
        ErrorCode code = failure.kind() == DomainFailure.Kind.INVALID ? ErrorCode.INVALID_ARGUMENTS : failure.code();
        return ToolOutcome.error(new ToolError(code, failure.publicMessage() + advice, failure.errors()));
    }
}
