package dev.tablewright.door;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.http.stream.HttpResponseStream;

import java.util.Map;

/**
 * How a door frames its stream, all {@link TurnStreams} needs to record a running turn and replay it to another
 * reader: the answer's headers, one part as its bytes on the wire, whether recorded bytes hold the turn's own end,
 * and how a replay ends.
 */
public interface StreamFraming {

    /** The headers of a streamed answer (a replay starts with them). */
    Map<String, String> headers();

    /** One part as the door writes it on the wire (what is recorded, so a replay is byte for byte the stream). */
    String frame(ObjectNode part);

    /** Whether these recorded frames hold the part that ends the turn. */
    boolean ends(String frames);

    /**
     * Ends a replay: with {@code ended} false the turn went away without its own end, and the door writes one; then
     * whatever closes the door's stream.
     */
    void close(HttpResponseStream response, boolean ended);
}
