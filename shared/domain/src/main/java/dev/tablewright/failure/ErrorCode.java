package dev.tablewright.failure;

/**
 * The error codes a refusal carries, as docs/errors.md lists them: a domain failure's ({@link DomainFailure#code}) and
 * a tool's ({@code dev.tablewright.toolcontract.ToolError}). {@link #wireName} is what the answers spell.
 */
public enum ErrorCode {
    // input
    INVALID_REQUEST("invalid_request"),
    INVALID_ARGUMENTS("invalid_arguments"),
    INVALID_CONFIG("invalid_config"),
    INVALID_CURSOR("invalid_cursor"),
    INVALID_INPUT("invalid_input"),
    // state
    NOT_FOUND("not_found"),
    CONFLICT("conflict"),
    VERSION_CONFLICT("version_conflict"),
    NAME_TAKEN("name_taken"),
    PREVIEW_NOT_PENDING("preview_not_pending"),
    CONVERSATION_BUSY("conversation_busy"),
    APPROVAL_BUSY("approval_busy"),
    // the transport: a door's function URL, before any body is read
    UNAUTHENTICATED("unauthenticated"),
    METHOD_NOT_ALLOWED("method_not_allowed"),
    // the service
    UNAVAILABLE("unavailable"),
    INTERNAL("internal"),
    // the calls the agent does not run (docs/errors.md, "tools")
    UNKNOWN_TOOL("unknown_tool"),
    TOO_MANY_CALLS("too_many_calls"),
    NO_RESULT("no_result"),
    INPUT_NOT_GIVEN("input_not_given");

    private final String wireName;

    ErrorCode(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    /** @throws IllegalArgumentException for a name that is no code of docs/errors.md */
    public static ErrorCode fromWire(String name) {
        for (ErrorCode c : values()) {
            if (c.wireName.equals(name)) {
                return c;
            }
        }
        throw new IllegalArgumentException("is not an error code of docs/errors.md");
    }
}
