package dev.tablewright.reference;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * PostgreSQL type → visual type. Accepts the spellings PostgreSQL itself produces ({@code format_type},
 * {@code information_schema.columns.data_type}, {@code pg_type.typname}): modifiers are dropped
 * ({@code varchar(255)}, {@code numeric(10,2)}, {@code timestamp(3) with time zone}), arrays are recognised as
 * {@code integer[]} or {@code _int4}, enums come from the catalogue's flag (or {@code USER-DEFINED}).
 * An unknown type maps to {@code string} with a warning.
 *
 * @param pgType      the normalised type name (lower case, no modifiers)
 * @param visualType  the visual type
 * @param elementType for arrays, the visual type of the elements; else null
 * @param warning     a warning when the type was guessed; else null
 */
public record PgTypeMapping(String pgType, VisualType visualType, VisualType elementType, String warning) {

    /** Longest type name considered; anything longer is unknown (bounded work on hostile input). */
    private static final int MAX_TYPE_CHARS = 128;

    /** The known base types, in the order the type reference lists them. */
    public static final Map<String, VisualType> KNOWN;

    static {
        Map<String, VisualType> m = new LinkedHashMap<>();
        for (String n : new String[]{"smallint", "integer", "bigint", "int", "int2", "int4", "int8", "smallserial",
                "serial", "bigserial", "serial2", "serial4", "serial8", "numeric", "decimal", "real", "float4",
                "double precision", "float8", "float", "money", "oid"}) {
            m.put(n, VisualType.NUMBER);
        }
        for (String n : new String[]{"text", "character varying", "varchar", "character", "char", "bpchar", "citext",
                "name", "interval", "inet", "cidr", "macaddr", "macaddr8", "bytea", "xml", "bit", "bit varying",
                "varbit", "tsvector"}) {
            m.put(n, VisualType.STRING);
        }
        m.put("boolean", VisualType.BOOLEAN);
        m.put("bool", VisualType.BOOLEAN);
        m.put("date", VisualType.DATE);
        for (String n : new String[]{"timestamp without time zone", "timestamp with time zone", "timestamp", "timestamptz"}) {
            m.put(n, VisualType.DATETIME);
        }
        for (String n : new String[]{"time without time zone", "time with time zone", "time", "timetz"}) {
            m.put(n, VisualType.TIME);
        }
        m.put("uuid", VisualType.UUID);
        m.put("json", VisualType.JSON);
        m.put("jsonb", VisualType.JSON);
        m.put("user-defined", VisualType.ENUM);
        KNOWN = java.util.Collections.unmodifiableMap(m);
    }

    public static PgTypeMapping of(String pgType) {
        return of(pgType, false);
    }

    /** Maps a type; {@code userDefinedEnum} is the catalogue's word that this (user-defined) type is an enum. */
    public static PgTypeMapping of(String pgType, boolean userDefinedEnum) {
        if (pgType == null || pgType.isBlank()) {
            return new PgTypeMapping(null, VisualType.STRING, null, "no PostgreSQL type given: shown as string");
        }
        if (pgType.length() > MAX_TYPE_CHARS) {
            return new PgTypeMapping(null, VisualType.STRING, null, "PostgreSQL type is too long to be real: shown as string");
        }
        String t = normalise(pgType);
        if (t.endsWith("[]") || t.endsWith(" array")) {
            String element = t.endsWith("[]") ? t.substring(0, t.indexOf('[')).trim() : t.substring(0, t.length() - 6).trim();
            return new PgTypeMapping(t, VisualType.ARRAY, elementOf(element, userDefinedEnum), null);
        }
        if (t.startsWith("_") && t.length() > 1) {
            VisualType element = KNOWN.get(t.substring(1));
            if (element != null) {
                return new PgTypeMapping(t, VisualType.ARRAY, element, null);
            }
        }
        if (userDefinedEnum) {
            return new PgTypeMapping(t, VisualType.ENUM, null, null);
        }
        VisualType known = KNOWN.get(t);
        if (known != null) {
            String warning = t.equals("user-defined")
                    ? "USER-DEFINED type assumed to be an enum (pass the type's name, or ground the tool in the catalogue)"
                    : null;
            return new PgTypeMapping(t, known, null, warning);
        }
        return new PgTypeMapping(t, VisualType.STRING, null, "unknown PostgreSQL type '" + t + "': shown as string");
    }

    private static VisualType elementOf(String element, boolean userDefinedEnum) {
        if (userDefinedEnum) {
            return VisualType.ENUM;
        }
        VisualType known = KNOWN.get(element);
        return known == null ? VisualType.STRING : known;
    }

    /** Lower case, single spaces, no type modifiers: {@code TIMESTAMP(3)  With Time Zone} → {@code timestamp with time zone}. */
    static String normalise(String pgType) {
        StringBuilder out = new StringBuilder(pgType.length());
        int depth = 0;
        boolean space = false;
        for (int i = 0; i < pgType.length(); i++) {
            char c = pgType.charAt(i);
            if (c == '(') {
                depth++;
                continue;
            }
            if (c == ')') {
                depth = Math.max(0, depth - 1);
                continue;
            }
            if (depth > 0) {
                continue;
            }
            if (Character.isWhitespace(c)) {
                space = true;
                continue;
            }
            if (space && !out.isEmpty() && c != '[') {
                out.append(' ');
            }
            space = false;
            out.append(Character.toLowerCase(c));
        }
        String t = out.toString();
        // Drop a leading "pg_catalog." and quotes: format_type may qualify or quote names.
        t = t.replace("\"", "");
        if (t.startsWith("pg_catalog.")) {
            t = t.substring("pg_catalog.".length());
        }
        return t.toLowerCase(Locale.ROOT);
    }
}
