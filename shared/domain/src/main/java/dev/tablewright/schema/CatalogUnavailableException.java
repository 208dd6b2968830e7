package dev.tablewright.schema;

/** The database could not be reached or read; tools answer {@code unavailable}. The message holds no credentials. */
public final class CatalogUnavailableException extends RuntimeException {
    public CatalogUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
