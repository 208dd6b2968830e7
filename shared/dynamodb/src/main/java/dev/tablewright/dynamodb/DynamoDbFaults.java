package dev.tablewright.dynamodb;

import dev.tablewright.store.StoreUnavailableException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

import java.util.Set;

/**
 * Maps what the SDK throws after its own retries to the domain: throttling, a fault on DynamoDB's side or an
 * unreachable endpoint become {@link StoreUnavailableException} (HTTP 503 + Retry-After). Anything else (a bad
 * request, a missing table: our bug) is rethrown as it is.
 */
public final class DynamoDbFaults {

    private static final Set<String> THROTTLING = Set.of(
            "ThrottlingException", "ProvisionedThroughputExceededException", "RequestLimitExceeded",
            "TransactionInProgressException", "LimitExceededException");

    private DynamoDbFaults() {
    }

    public static boolean isUnavailable(SdkException e) {
        if (e instanceof SdkClientException) {
            // Raised client-side: connection refused, timeouts, I/O errors after the retries.
            return true;
        }
        if (e instanceof TransactionCanceledException t && t.hasCancellationReasons()) {
            for (CancellationReason reason : t.cancellationReasons()) {
                if ("ThrottlingError".equals(reason.code()) || "ProvisionedThroughputExceeded".equals(reason.code())) {
                    return true;
                }
            }
            return false;
        }
        if (e instanceof DynamoDbException d) {
            String code = d.awsErrorDetails() != null ? d.awsErrorDetails().errorCode() : null;
            return d.isThrottlingException() || d.statusCode() >= 500 || (code != null && THROTTLING.contains(code));
        }
        return false;
    }

    /** The domain exception for {@code e} if it means "unavailable", else {@code e} itself. */
    public static RuntimeException translate(SdkException e) {
        if (isUnavailable(e)) {
            return new StoreUnavailableException("DynamoDB unavailable: " + e.getClass().getSimpleName(), retryAfterSeconds(e), e);
        }
        return e;
    }

    private static int retryAfterSeconds(SdkException e) {
        return e instanceof SdkClientException ? 5 : 1;
    }
}
