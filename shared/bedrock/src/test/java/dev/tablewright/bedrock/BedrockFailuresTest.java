package dev.tablewright.bedrock;

import dev.tablewright.agent.model.ModelFailure;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.time.Duration;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Bedrock's errors as the turn's failures, and the settings they name. */
class BedrockFailuresTest {

    private static final BedrockSettings SETTINGS = new BedrockSettings(URI.create("https://bedrock-runtime.eu-west-1.amazonaws.com/"),
            "eu-west-1", "amazon.nova-lite-v1:0", Duration.ofSeconds(30));

    private static ModelFailure failure(String type, String message) {
        return BedrockFailures.of(type, message, SETTINGS, false, null);
    }

    @Test
    void throttlingAndUnavailabilityAreRetryableAndKeepRetryAfter() {
        ModelFailure throttled = BedrockFailures.of("ThrottlingException", "slow down", SETTINGS, false, Duration.ofSeconds(3));
        assertEquals(ModelFailure.Kind.RATE_LIMITED, throttled.kind());
        assertTrue(throttled.retryable());
        assertEquals(Duration.ofSeconds(3), throttled.retryAfter().orElseThrow());
        assertEquals(ModelFailure.Kind.UNAVAILABLE, failure("ServiceUnavailableException", null).kind());
        assertTrue(failure("InternalServerException", null).getMessage().contains("an internal error"));
        assertEquals(ModelFailure.Kind.TIMEOUT, failure("ModelTimeoutException", null).kind());
        assertFalse(BedrockFailures.of("ThrottlingException", null, SETTINGS, true, null).retryable(), "never after the first byte");
    }

    @Test
    void refusalsNameTheModelAndWhatToChangeNeverTheAccount() {
        ModelFailure invalid = failure("ValidationException", "This model doesn't support tool use.");
        assertEquals(ModelFailure.Kind.REJECTED, invalid.kind());
        assertTrue(invalid.getMessage().contains("amazon.nova-lite-v1:0") && invalid.getMessage().contains("BEDROCK_MODEL_ID")
                && invalid.getMessage().contains("doesn't support tool use"), invalid.getMessage());
        ModelFailure role = failure("AccessDeniedException",
                "User: arn:aws:sts::123456789012:assumed-role/chat/fn is not authorized to perform: bedrock:InvokeModelWithResponseStream");
        assertTrue(role.getMessage().contains("bedrock:InvokeModelWithResponseStream"), role.getMessage());
        assertFalse(role.getMessage().contains("123456789012"), "no account in the user's message");
        assertTrue(failure("AccessDeniedException", "You don't have access").getMessage().contains("Model access"));
        assertTrue(failure("ExpiredTokenException", null).getMessage().contains("the credentials have expired"));
        assertTrue(failure("ResourceNotFoundException", null).getMessage().contains("no model amazon.nova-lite-v1:0 in eu-west-1"));
    }

    @Test
    void aStreamErrorIsACutAndAnUnknownErrorDependsOnTheFirstByte() {
        ModelFailure cut = failure("modelStreamErrorException", "The model failed  to\nstream");
        assertEquals(ModelFailure.Kind.CUT_OFF, cut.kind());
        assertTrue(cut.getMessage().contains("The model failed to stream"), cut.getMessage());
        assertEquals(ModelFailure.Kind.UNAVAILABLE, failure("SomethingNew", null).kind());
        assertEquals(ModelFailure.Kind.CUT_OFF, BedrockFailures.of("SomethingNew", null, SETTINGS, true, null).kind());
    }

    @Test
    void errorTypesAreReadInTheirShortForm() {
        assertEquals("ThrottlingException", BedrockFailures.shortName("ThrottlingException:http://internal.amazon.com/coral/com.amazon"));
        assertEquals("ValidationException", BedrockFailures.shortName("com.amazon.bedrock#ValidationException"));
        assertEquals("", BedrockFailures.shortName(null));
    }

    @Test
    void settingsComeFromTheEnvironmentAndNameWhatIsMissing() {
        BedrockSettings settings = BedrockSettings.fromEnvironment(Map.of("AWS_REGION", "us-east-1", "BEDROCK_MODEL_ID", "m"));
        assertEquals(URI.create("https://bedrock-runtime.us-east-1.amazonaws.com"), settings.endpoint());
        assertEquals(Duration.ofSeconds(30), settings.idleTimeout());
        assertEquals(URI.create("http://127.0.0.1:9"), BedrockSettings.fromEnvironment(Map.of("AWS_DEFAULT_REGION", "eu-west-1",
                "BEDROCK_MODEL_ID", "m", "BEDROCK_ENDPOINT", "http://127.0.0.1:9/", "MODEL_IDLE_TIMEOUT_SECONDS", "5")).endpoint());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> BedrockSettings.fromEnvironment(Map.of("AWS_REGION", "us-east-1")))
                .getMessage().contains("BEDROCK_MODEL_ID"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> BedrockSettings.fromEnvironment(Map.of("BEDROCK_MODEL_ID", "m")))
                .getMessage().contains("AWS_REGION"));
    }
}
