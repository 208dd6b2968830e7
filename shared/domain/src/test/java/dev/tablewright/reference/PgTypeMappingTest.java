package dev.tablewright.reference;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

class PgTypeMappingTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            smallint | number
            integer | number
            INTEGER | number
            bigint | number
            int4 | number
            serial | number
            bigserial | number
            smallserial | number
            numeric(12,2) | number
            decimal | number
            real | number
            double precision | number
            money | number
            text | string
            character varying(255) | string
            varchar(32) | string
            character(3) | string
            char | string
            bpchar | string
            citext | string
            interval | string
            boolean | boolean
            bool | boolean
            date | date
            time | time
            time without time zone | time
            time(3) with time zone | time
            timetz | time
            timestamp | datetime
            timestamp without time zone | datetime
            timestamp(6) with time zone | datetime
            timestamptz | datetime
            uuid | uuid
            json | json
            jsonb | json
            integer[] | array
            text[] | array
            _int4 | array
            _text | array
            character varying(20)[] | array
            USER-DEFINED | enum
            """)
    void mapsCommonTypes(String pgType, String visual) {
        assertEquals(visual, PgTypeMapping.of(pgType).visualType().wireName());
    }

    @Test
    void arraysKnowTheirElementType() {
        assertEquals(VisualType.NUMBER, PgTypeMapping.of("integer[]").elementType());
        assertEquals(VisualType.NUMBER, PgTypeMapping.of("_int8").elementType());
        assertEquals(VisualType.ENUM, PgTypeMapping.of("sales.order_status[]", true).elementType());
    }

    @Test
    void userDefinedEnumsComeFromTheCatalogueFlag() {
        PgTypeMapping m = PgTypeMapping.of("sales.order_status", true);
        assertEquals(VisualType.ENUM, m.visualType());
        assertNull(m.warning());
    }

    @Test
    void unknownTypesAreStringsWithAWarning() {
        PgTypeMapping m = PgTypeMapping.of("geometry(Point,4326)");
        assertEquals(VisualType.STRING, m.visualType());
        assertTrue(m.warning().contains("unknown PostgreSQL type 'geometry'"), m.warning());
        assertNotNull(PgTypeMapping.of(null).warning());
        assertNotNull(PgTypeMapping.of("x".repeat(5_000_000)).warning());
    }

    @Test
    void operatorsPerType() {
        assertTrue(VisualType.NUMBER.allows(FilterOperator.BETWEEN));
        assertFalse(VisualType.NUMBER.allows(FilterOperator.CONTAINS));
        assertTrue(VisualType.STRING.allows(FilterOperator.STARTS_WITH));
        assertFalse(VisualType.BOOLEAN.allows(FilterOperator.GT));
        assertTrue(VisualType.ARRAY.allows(FilterOperator.CONTAINS));
        for (VisualType t : VisualType.values()) {
            assertTrue(t.allows(FilterOperator.IS_NULL), t + " allows is_null");
        }
        assertEquals(FilterOperator.NOT_IN, FilterOperator.parse("NOT_IN").orElseThrow());
        assertTrue(FilterOperator.parse("like").isEmpty());
    }

    @Test
    void referenceDocumentListsTypesFormatsAndOperators() {
        ObjectNode doc = TypeReference.document();
        assertEquals("datetime", doc.at("/pg_types/timestamp with time zone").asText());
        assertEquals("array", doc.at("/pg_types/_int4").asText());
        assertEquals("yyyy-MM-dd HH:mm", doc.at("/visual_types/datetime/default_format").asText());
        assertTrue(doc.at("/visual_types/date/format_required").asBoolean());
        assertEquals("between", doc.at("/visual_types/number/operators").get(6).asText());
        assertEquals("[low, high]", doc.at("/operators/between/value").asText());
        doc.put("mutated", true);
        assertFalse(TypeReference.document().has("mutated"), "callers get a copy");
    }
}
