package dev.tablewright.bedrock;

/**
 * The error type Bedrock Runtime answers with each HTTP status (its {@code x-amzn-ErrorType}): what the chat
 * model reads an error as when the response names no type, and what a stand-in for Bedrock names when a script
 * gives only a status, so the two cannot disagree.
 */
public final class BedrockErrorTypes {

    private BedrockErrorTypes() {
    }

    public static String ofStatus(int status) {
        return switch (status) {
            case 400 -> "ValidationException";
            case 403 -> "AccessDeniedException";
            case 404 -> "ResourceNotFoundException";
            case 408 -> "ModelTimeoutException";
            case 424 -> "ModelErrorException";
            case 429 -> "ThrottlingException";
            case 503 -> "ServiceUnavailableException";
            default -> "InternalServerException";
        };
    }
}
