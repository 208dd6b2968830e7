package dev.tablewright.dynamodb;

import dev.tablewright.configstore.InvalidCursorException;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The stores' one cursor: what a listing hands out it reads back; anything else is refused, never queried. */
class QueryCursorTest {

    private static final List<String> CONVERSATIONS = List.of("sk", "listSk");
    private static final Map<String, Predicate<String>> CONVERSATION_KEYS = Map.of("sk", sk -> sk.startsWith("CONV#"));

    @Test
    void aCursorHandedOutReadsBackAsTheKeyTheQueryStoppedAt() {
        QueryResponse page = QueryResponse.builder().lastEvaluatedKey(Map.of("pk", Attributes.s("OWNER#u"),
                "sk", Attributes.s("CONV#c1"), "listPk", Attributes.s("OWNER#u"), "listSk", Attributes.s("00000000000000000042#c1"))).build();
        String cursor = QueryCursor.next(page, CONVERSATIONS);
        assertEquals(Map.of("sk", "CONV#c1", "listSk", "00000000000000000042#c1"), QueryCursor.read(cursor, CONVERSATIONS, CONVERSATION_KEYS));
        // the partition is the caller's, never the cursor's: a cursor cannot name another owner's partition
        assertEquals(Map.of("pk", Attributes.s("OWNER#me"), "sk", Attributes.s("CONV#c1"), "listSk", Attributes.s("00000000000000000042#c1")),
                QueryCursor.startKey(QueryCursor.read(cursor, CONVERSATIONS, CONVERSATION_KEYS), Map.of("pk", Attributes.s("OWNER#me"))));
    }

    @Test
    void theLastPageHasNoCursor() {
        assertNull(QueryCursor.next(QueryResponse.builder().build(), CONVERSATIONS));
    }

    @Test
    void aCursorThisListingDidNotHandOutIsRefused() {
        assertThrows(InvalidCursorException.class, () -> QueryCursor.read("not-a-cursor!", CONVERSATIONS, CONVERSATION_KEYS));
        assertThrows(InvalidCursorException.class, () -> QueryCursor.read(encode("{\"sk\":\"CONFIG#x\",\"listSk\":\"1#x\"}"), CONVERSATIONS, CONVERSATION_KEYS));
        assertThrows(InvalidCursorException.class, () -> QueryCursor.read(encode("{\"sk\":\"CONV#x\"}"), CONVERSATIONS, CONVERSATION_KEYS));
        assertThrows(InvalidCursorException.class, () -> QueryCursor.read(encode("{\"sk\":\"CONV#x\",\"listSk\":7}"), CONVERSATIONS, CONVERSATION_KEYS));
        assertThrows(InvalidCursorException.class, () -> QueryCursor.read(encode("[]"), CONVERSATIONS, CONVERSATION_KEYS));
        assertThrows(InvalidCursorException.class, () -> QueryCursor.read(encode("{\"sk\":\"CONV#" + "x".repeat(2000) + "\",\"listSk\":\"1\"}"),
                CONVERSATIONS, CONVERSATION_KEYS));
    }

    private static String encode(String json) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(json.getBytes(StandardCharsets.UTF_8));
    }
}
