package dev.tablewright.dynamodb;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Instant;
import java.util.Map;

/** Reading and writing the plain attribute kinds the stores use. Absent attributes read as null. */
final class Attributes {
    private Attributes() {
    }

    static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }

    static AttributeValue n(long value) {
        return AttributeValue.fromN(Long.toString(value));
    }

    static String string(Map<String, AttributeValue> item, String name) {
        AttributeValue v = item.get(name);
        return v == null ? null : v.s();
    }

    static Long number(Map<String, AttributeValue> item, String name) {
        AttributeValue v = item.get(name);
        return v == null || v.n() == null ? null : Long.valueOf(v.n());
    }

    static Instant instant(Map<String, AttributeValue> item, String name) {
        String v = string(item, name);
        return v == null ? null : Instant.parse(v);
    }

    static Instant epochMillis(Map<String, AttributeValue> item, String name) {
        Long v = number(item, name);
        return v == null ? null : Instant.ofEpochMilli(v);
    }
}
