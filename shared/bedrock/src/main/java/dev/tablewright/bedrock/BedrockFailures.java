package dev.tablewright.bedrock;

import dev.tablewright.agent.model.ModelFailure;

import java.time.Duration;
import java.util.Locale;

/**
 * Bedrock's errors (an HTTP error before the stream, or an exception frame inside it) as the failures the turn
 * knows: throttling and unavailability are retryable kinds, so the one retry policy backs off and tries again; a
 * request Bedrock refuses is {@code REJECTED} with a message that names the model and says what to change. The
 * messages are shown to the user: they name the model and the region, never an account, a role or a key.
 */
final class BedrockFailures {

    private BedrockFailures() {
    }

    /**
     * @param type          the error's short name ({@code ThrottlingException}, {@code modelStreamErrorException}, ...)
     * @param message       Bedrock's own message, or null
     * @param afterFirstByte whether part of the step already reached the listener
     */
    static ModelFailure of(String type, String message, BedrockSettings settings, boolean afterFirstByte, Duration retryAfter) {
        String model = settings.modelId();
        String name = type == null ? "" : type.toLowerCase(Locale.ROOT);
        return switch (name) {
            case "throttlingexception" -> new ModelFailure(ModelFailure.Kind.RATE_LIMITED,
                    "Bedrock is throttling requests to " + model + " (too many requests or tokens per minute).", afterFirstByte, retryAfter);
            case "servicequotaexceededexception" -> new ModelFailure(ModelFailure.Kind.RATE_LIMITED,
                    "The account's Bedrock quota for " + model + " is used up for now.", afterFirstByte, retryAfter);
            case "serviceunavailableexception", "internalserverexception", "modelnotreadyexception", "modelerrorexception" ->
                    new ModelFailure(ModelFailure.Kind.UNAVAILABLE, "Bedrock could not answer with " + model + " just now ("
                            + inWords(name) + ").", afterFirstByte, retryAfter);
            case "modeltimeoutexception" -> new ModelFailure(ModelFailure.Kind.TIMEOUT,
                    "The model " + model + " did not answer in time.", afterFirstByte);
            case "modelstreamerrorexception" -> new ModelFailure(ModelFailure.Kind.CUT_OFF,
                    "The model " + model + " broke off its answer (Bedrock reported a model stream error"
                            + (message == null || message.isBlank() ? "" : ": " + clip(message)) + ").", afterFirstByte);
            case "validationexception" -> new ModelFailure(ModelFailure.Kind.REJECTED,
                    "Bedrock rejected the request to " + model + (message == null || message.isBlank() ? "" : ": " + clip(message))
                            + " (check BEDROCK_MODEL_ID: the model must exist in " + settings.region()
                            + ", support tool use and streaming, and some models are reached only through an inference profile).",
                    afterFirstByte);
            case "resourcenotfoundexception" -> new ModelFailure(ModelFailure.Kind.REJECTED,
                    "Bedrock has no model " + model + " in " + settings.region() + " (check BEDROCK_MODEL_ID).", afterFirstByte);
            case "accessdeniedexception" -> accessDenied(message, settings, afterFirstByte);
            case "unrecognizedclientexception", "invalidsignatureexception", "expiredtokenexception", "incompletesignatureexception",
                 "missingauthenticationtokenexception" -> new ModelFailure(ModelFailure.Kind.REJECTED,
                    "Bedrock refused the function's AWS credentials (" + inWords(name) + ").", afterFirstByte);
            default -> new ModelFailure(afterFirstByte ? ModelFailure.Kind.CUT_OFF : ModelFailure.Kind.UNAVAILABLE,
                    "Bedrock failed with " + model + " (an unexpected error).", afterFirstByte);
        };
    }

    /** An error code as the user's sentence says it (the code itself goes to the log, not to the user). */
    private static String inWords(String lowerCaseType) {
        return switch (lowerCaseType) {
            case "serviceunavailableexception" -> "the service is unavailable";
            case "internalserverexception" -> "an internal error";
            case "modelnotreadyexception" -> "the model is not ready";
            case "modelerrorexception" -> "the model failed";
            case "invalidsignatureexception", "incompletesignatureexception" -> "the request's signature did not match";
            case "expiredtokenexception" -> "the credentials have expired";
            case "missingauthenticationtokenexception" -> "the request was not signed";
            default -> "the credentials are not recognised";
        };
    }

    /**
     * Two causes look alike: the role lacks the IAM permission (Bedrock's message says the caller "is not authorized
     * to perform" the action), or the account has not been granted access to the model.
     */
    private static ModelFailure accessDenied(String message, BedrockSettings settings, boolean afterFirstByte) {
        String model = settings.modelId();
        String text = message == null ? "" : message;
        if (text.contains("not authorized to perform")) {
            return new ModelFailure(ModelFailure.Kind.REJECTED, "The chat function's role may not call " + model
                    + ": it needs bedrock:InvokeModelWithResponseStream on the model's foundation-model ARN (and on the "
                    + "inference profile's ARN when BEDROCK_MODEL_ID is one) in " + settings.region() + ".", afterFirstByte);
        }
        return new ModelFailure(ModelFailure.Kind.REJECTED, "This AWS account has no access to " + model + " in "
                + settings.region() + ": enable it under Model access in the Bedrock console (docs/deploy.md), or pick a "
                + "model the account can use.", afterFirstByte);
    }

    /** "ThrottlingException:http://internal.amazon.com/…" or "com.amazon…#ThrottlingException" to "ThrottlingException". */
    static String shortName(String type) {
        if (type == null) {
            return "";
        }
        String name = type;
        int colon = name.indexOf(':');
        if (colon >= 0) {
            name = name.substring(0, colon);
        }
        int hash = name.lastIndexOf('#');
        if (hash >= 0) {
            name = name.substring(hash + 1);
        }
        return name.strip();
    }

    private static String clip(String message) {
        String oneLine = message.replaceAll("\\s+", " ").strip();
        return oneLine.length() <= 300 ? oneLine : oneLine.substring(0, 300) + "…";
    }
}
