package dev.tablewright.door;

/**
 * A request's body as text, decoded from the transport's form only when asked (so a route that reads no body, a
 * {@code stream} or {@code stop}, never decodes it); a body that cannot be is refused.
 */
@FunctionalInterface
public interface RequestBody {

    String text() throws BadRequest;

    static RequestBody of(String text) {
        return () -> text;
    }
}
