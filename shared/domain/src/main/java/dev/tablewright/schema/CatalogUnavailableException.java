package dev.tablewright.schema;

import dev.tablewright.failure.DomainFailure;
import dev.tablewright.failure.ErrorCode;

/** The database could not be reached or read; tools answer {@code unavailable}. The message holds no credentials. */
public final class CatalogUnavailableException extends DomainFailure {
    public CatalogUnavailableException(String message, Throwable cause) {
        super(Kind.UNAVAILABLE, ErrorCode.UNAVAILABLE, message, cause);
    }
}
