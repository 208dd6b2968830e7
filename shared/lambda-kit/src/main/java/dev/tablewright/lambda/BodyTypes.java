package dev.tablewright.lambda;

import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.json.Json;
import dev.tablewright.validation.ValidationError;

import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Every value of a request body whose JSON type does not fit the record it is read into, and every unknown field,
 * all at once: the binder stops at the first, a client should hear of all. Values are checked by type only
 * (a string, a whole number, a list of records...); what they may be is the domain's business after binding.
 */
final class BodyTypes {

    private static final int MAX_ERRORS = 50;

    private BodyTypes() {
    }

    static List<ValidationError> mismatches(JsonNode body, Class<?> type) {
        List<ValidationError> out = new ArrayList<>();
        check(body, type, "", out);
        return out;
    }

    private static void check(JsonNode node, Type type, String path, List<ValidationError> out) {
        if (node == null || node.isNull() || node.isMissingNode() || out.size() >= MAX_ERRORS) {
            return;
        }
        if (type instanceof ParameterizedType p && p.getRawType() instanceof Class<?> raw) {
            if (Collection.class.isAssignableFrom(raw)) {
                if (!node.isArray()) {
                    out.add(wrong(path, "a list", node));
                    return;
                }
                for (int i = 0; i < node.size(); i++) {
                    check(node.get(i), p.getActualTypeArguments()[0], path + "[" + i + "]", out);
                }
            } else if (Map.class.isAssignableFrom(raw)) {
                if (!node.isObject()) {
                    out.add(wrong(path, "an object", node));
                    return;
                }
                node.properties().forEach(e -> check(e.getValue(), p.getActualTypeArguments()[1], join(path, e.getKey()), out));
            }
            return;
        }
        if (!(type instanceof Class<?> c) || JsonNode.class.isAssignableFrom(c) || c == Object.class) {
            return;
        }
        if (c == String.class) {
            expect(node.isTextual(), path, "a string", node, out);
        } else if (c == Boolean.class || c == boolean.class) {
            expect(node.isBoolean(), path, "true or false", node, out);
        } else if (c == Long.class || c == long.class || c == Integer.class || c == int.class) {
            expect(node.isIntegralNumber(), path, "a whole number", node, out);
        } else if (c == BigDecimal.class || c == Double.class || c == double.class) {
            expect(node.isNumber(), path, "a number", node, out);
        } else if (c.isEnum()) {
            expect(node.isTextual(), path, "a string", node, out);
        } else if (c.isRecord()) {
            if (!node.isObject()) {
                out.add(wrong(path, "an object", node));
                return;
            }
            Set<String> known = new HashSet<>();
            boolean takesAny = false;
            for (RecordComponent rc : c.getRecordComponents()) {
                JsonProperty named = rc.getAnnotation(JsonProperty.class);
                String name = named != null && !named.value().isEmpty() ? named.value() : rc.getName();
                known.add(name);
                takesAny |= rc.isAnnotationPresent(JsonAnySetter.class) || rc.getAccessor().isAnnotationPresent(JsonAnySetter.class);
                check(node.get(name), rc.getGenericType(), join(path, name), out);
            }
            if (!takesAny) {
                for (String field : (Iterable<String>) node::fieldNames) {
                    if (!known.contains(field) && out.size() < MAX_ERRORS) {
                        out.add(new ValidationError(join(path, field), "unknown field '" + field + "'"));
                    }
                }
            }
        }
    }

    private static void expect(boolean fits, String path, String what, JsonNode node, List<ValidationError> out) {
        if (!fits) {
            out.add(wrong(path, what, node));
        }
    }

    private static ValidationError wrong(String path, String what, JsonNode node) {
        return new ValidationError(path.isEmpty() ? "body" : path, "expected " + what + ", got " + Json.kind(node));
    }

    private static String join(String path, String name) {
        String shown = name.length() > 64 ? name.substring(0, 64) + "…" : name;
        return path.isEmpty() ? shown : path + "." + shown;
    }
}
