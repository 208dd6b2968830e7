package dev.tablewright.userinput;

import dev.tablewright.json.Json;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.toolcontract.FieldType;
import dev.tablewright.toolcontract.InputField;
import dev.tablewright.validation.ValidationError;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Server-side checks of user-input forms (pure: no I/O).
 * <ul>
 *   <li>{@link #checkDefinition}: a form a tool or a client declares is well-formed (names, types, options, patterns).</li>
 *   <li>{@link #validate}: the values a user submits for a form: every bad field named at once, as
 *       {@code values.<name>}; accepted values normalised to strings ({@code 42}, {@code true}, {@code 2025-01-31}).</li>
 * </ul>
 * A field with {@code showWhen} is shown only when the field it names has the given value, and only then is it
 * required; a value sent for a hidden field is dropped.
 */
public final class InputFieldValidator {

    public static final Pattern FIELD_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,63}");
    public static final int MAX_FIELDS = 50;
    public static final int MAX_OPTIONS = 200;

    private InputFieldValidator() {
    }

    /** The outcome of a submit: accepted values (shown fields that had one) or the problems. */
    public record Result(Map<String, String> values, List<ValidationError> errors) {
        public boolean valid() {
            return errors.isEmpty();
        }
    }

    /** Problems with a form's declaration; fields are named {@code <prefix>[i].<property>}. */
    public static List<ValidationError> checkDefinition(List<InputField> fields, String prefix) {
        List<ValidationError> errors = new ArrayList<>();
        if (fields == null || fields.isEmpty()) {
            errors.add(new ValidationError(prefix, "at least one field is required"));
            return errors;
        }
        if (fields.size() > MAX_FIELDS) {
            errors.add(new ValidationError(prefix, "at most " + MAX_FIELDS + " fields"));
            return errors;
        }
        Set<String> names = new HashSet<>();
        for (InputField f : fields) {
            if (f != null && f.name() != null) {
                names.add(f.name());
            }
        }
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < fields.size(); i++) {
            InputField f = fields.get(i);
            String at = prefix + "[" + i + "]";
            if (f == null) {
                errors.add(new ValidationError(at, "a field object is required"));
                continue;
            }
            if (f.name() == null || !FIELD_NAME.matcher(f.name()).matches()) {
                errors.add(new ValidationError(at + ".name", "a name of letters, digits and _ (not starting with a digit), at most 64 characters, is required"));
            } else if (!seen.add(f.name())) {
                errors.add(new ValidationError(at + ".name", "duplicate field name '" + f.name() + "'"));
            }
            if (f.type() == null) {
                errors.add(new ValidationError(at + ".type", "a type is required (text, number, select, boolean, secret or date)"));
            }
            if (f.type() == FieldType.SELECT) {
                if (f.options() == null || f.options().isEmpty()) {
                    errors.add(new ValidationError(at + ".options", "a select field needs at least one option"));
                } else if (f.options().size() > MAX_OPTIONS || f.options().stream().anyMatch(o -> o == null || o.isEmpty() || o.length() > 256)) {
                    errors.add(new ValidationError(at + ".options", "options are 1 to " + MAX_OPTIONS + " non-empty strings of at most 256 characters"));
                }
            } else if (f.options() != null && !f.options().isEmpty()) {
                errors.add(new ValidationError(at + ".options", "only a select field has options"));
            }
            if (f.validation() != null) {
                if (f.type() != FieldType.TEXT && f.type() != FieldType.SECRET) {
                    errors.add(new ValidationError(at + ".validation", "a pattern applies only to text and secret fields"));
                } else {
                    try {
                        SafePattern.compile(f.validation());
                    } catch (IllegalArgumentException e) {
                        errors.add(new ValidationError(at + ".validation", e.getMessage()));
                    }
                }
            }
            if ((f.min() != null || f.max() != null) && f.type() != FieldType.NUMBER) {
                errors.add(new ValidationError(at + ".min", "min and max apply only to number fields"));
            }
            if (f.min() != null && f.max() != null && f.min().compareTo(f.max()) > 0) {
                errors.add(new ValidationError(at + ".max", "max is smaller than min"));
            }
            if (f.showWhen() != null) {
                if (f.showWhen().field() == null || !names.contains(f.showWhen().field()) || f.showWhen().field().equals(f.name())) {
                    errors.add(new ValidationError(at + ".showWhen.field", "showWhen must name another field of this form"));
                }
                if (f.showWhen().equals() == null) {
                    errors.add(new ValidationError(at + ".showWhen.equals", "showWhen needs the value that shows the field"));
                }
            }
            for (String text : new String[]{f.label(), f.description(), f.placeholder()}) {
                if (text != null && text.length() > 1000) {
                    errors.add(new ValidationError(at, "label, description and placeholder are at most 1000 characters"));
                    break;
                }
            }
        }
        return errors;
    }

    /**
     * Checks submitted {@code values} (a JSON object: field name → value) against the form. Unknown names, wrong
     * types, missing required (shown) fields, pattern, range and option violations are all reported together.
     */
    public static Result validate(List<InputField> fields, JsonNode values) {
        List<ValidationError> errors = new ArrayList<>();
        if (values == null || values.isNull() || values.isMissingNode()) {
            values = dev.tablewright.json.Json.object();
        }
        if (!values.isObject()) {
            return new Result(Map.of(), List.of(new ValidationError("values", "an object of field name → value is required")));
        }
        Map<String, InputField> byName = new LinkedHashMap<>();
        fields.forEach(f -> byName.put(f.name(), f));
        for (Iterator<String> it = values.fieldNames(); it.hasNext(); ) {
            String name = it.next();
            if (!byName.containsKey(name)) {
                errors.add(new ValidationError("values." + abbreviate(name), "unknown field (the form has " + String.join(", ", byName.keySet()) + ")"));
            }
        }
        // First each value on its own, then which fields are shown (a condition reads the other field's normalised value).
        Map<String, String> normalised = new HashMap<>();
        Map<String, String> problems = new HashMap<>();
        for (InputField f : fields) {
            JsonNode v = values.get(f.name());
            if (isAbsent(v)) {
                continue;
            }
            // what the user submits is typed JSON: a number field takes a number, not text that looks like one
            Check c = f.type() == FieldType.NUMBER && !v.isNumber() ? problem("expected a number, got " + Json.kind(v)) : check(f, v);
            if (c.problem() != null) {
                problems.put(f.name(), c.problem());
            } else {
                normalised.put(f.name(), c.value());
            }
        }
        Map<String, String> accepted = new LinkedHashMap<>();
        for (InputField f : fields) {
            if (!shown(f, byName, normalised, 0)) {
                continue;
            }
            String at = "values." + f.name();
            if (problems.containsKey(f.name())) {
                errors.add(new ValidationError(at, problems.get(f.name())));
            } else if (normalised.containsKey(f.name())) {
                accepted.put(f.name(), normalised.get(f.name()));
            } else if (f.isRequired()) {
                errors.add(new ValidationError(at, "is required"));
            }
        }
        return new Result(errors.isEmpty() ? accepted : Map.of(), errors);
    }

    /** One value on its own: its normalised string, or why it is not acceptable. */
    public record Check(String value, String problem) {
    }

    /**
     * One value on its own, leniently typed (saved values are stored as text and a model may quote a number):
     * submitted values are checked strictly by {@link #validate}.
     */
    public static Check check(InputField f, JsonNode v) {
        return switch (f.type() == null ? FieldType.TEXT : f.type()) {
            case TEXT, SECRET -> {
                if (!v.isTextual()) {
                    yield problem("expected a string");
                }
                String s = v.textValue();
                if (s.length() > SafePattern.MAX_VALUE_LENGTH) {
                    yield problem("at most " + SafePattern.MAX_VALUE_LENGTH + " characters");
                }
                if (f.validation() != null) {
                    SafePattern.Result r = SafePattern.compile(f.validation()).matches(s);
                    if (r == SafePattern.Result.NO_MATCH) {
                        yield problem("does not match the pattern " + f.validation());
                    }
                    if (r == SafePattern.Result.TOO_COSTLY) {
                        yield problem("could not be checked against the pattern within its time budget");
                    }
                }
                yield ok(s);
            }
            case NUMBER -> {
                BigDecimal n;
                if (v.isNumber()) {
                    n = v.decimalValue();
                } else if (v.isTextual() && v.textValue().length() <= 64) {
                    try {
                        n = new BigDecimal(v.textValue().trim());
                    } catch (NumberFormatException e) {
                        yield problem("expected a number");
                    }
                } else {
                    yield problem("expected a number");
                }
                if (f.min() != null && n.compareTo(f.min()) < 0) {
                    yield problem("must be at least " + f.min().toPlainString());
                }
                if (f.max() != null && n.compareTo(f.max()) > 0) {
                    yield problem("must be at most " + f.max().toPlainString());
                }
                yield ok(n.toPlainString());
            }
            case BOOLEAN -> {
                if (v.isBoolean()) {
                    yield ok(Boolean.toString(v.booleanValue()));
                }
                if (v.isTextual() && (v.textValue().equals("true") || v.textValue().equals("false"))) {
                    yield ok(v.textValue());
                }
                yield problem("expected true or false");
            }
            case SELECT -> {
                if (!v.isTextual()) {
                    yield problem("expected one of " + f.options());
                }
                yield f.options() != null && f.options().contains(v.textValue()) ? ok(v.textValue()) : problem("expected one of " + f.options());
            }
            case DATE -> {
                if (!v.isTextual() || v.textValue().length() != 10) {
                    yield problem("expected a date as YYYY-MM-DD");
                }
                try {
                    yield ok(LocalDate.parse(v.textValue()).toString());
                } catch (DateTimeParseException e) {
                    yield problem("expected a date as YYYY-MM-DD");
                }
            }
        };
    }

    /** Whether a field is shown given the other values (chains of conditions are followed, cycles are not shown). */
    static boolean shown(InputField f, Map<String, InputField> byName, Map<String, String> values, int depth) {
        if (f.showWhen() == null) {
            return true;
        }
        if (depth > byName.size()) {
            return false;
        }
        InputField controller = byName.get(f.showWhen().field());
        return controller != null && shown(controller, byName, values, depth + 1)
                && f.showWhen().equals().equals(values.get(controller.name()));
    }

    static boolean isAbsent(JsonNode v) {
        return v == null || v.isNull() || v.isMissingNode() || (v.isTextual() && v.textValue().isEmpty());
    }

    private static Check ok(String value) {
        return new Check(value, null);
    }

    private static Check problem(String problem) {
        return new Check(null, problem);
    }

    private static String abbreviate(String name) {
        return name.length() > 64 ? name.substring(0, 64) + "…" : name;
    }
}
