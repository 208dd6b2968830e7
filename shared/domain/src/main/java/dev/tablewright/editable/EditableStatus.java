package dev.tablewright.editable;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The editable fields of one page context and their current values. {@link #update} is the one
 * generic, validating way to change any of them; {@link #render} is the block the system prompt carries.
 * Immutable: an update answers the new status alongside its result.
 */
public final class EditableStatus {

    private final Map<String, EditableField> fields;

    public EditableStatus(Collection<EditableField> fields) {
        Map<String, EditableField> byName = new LinkedHashMap<>();
        for (EditableField f : fields) {
            byName.put(f.name(), f);
        }
        this.fields = java.util.Collections.unmodifiableMap(byName);
    }

    public static EditableStatus empty() {
        return new EditableStatus(List.of());
    }

    public Map<String, EditableField> fields() {
        return fields;
    }

    public boolean isEmpty() {
        return fields.isEmpty();
    }

    /** The outcome of one update: the answer for the model and the status after it. */
    public record Result(EditableFieldUpdate update, EditableStatus status) {
    }

    public Result update(String fieldName, String value) {
        EditableField field = fieldName == null ? null : fields.get(fieldName);
        if (field == null) {
            return new Result(EditableFieldUpdate.refused(fieldName,
                    "Unknown editable field: " + fieldName + " (editable fields: " + String.join(", ", fields.keySet()) + ")",
                    null), this);
        }
        if (field.readonly()) {
            return new Result(EditableFieldUpdate.refused(fieldName, "Field '" + fieldName + "' is read-only", field.value()), this);
        }
        String normalised = value == null ? null : value.strip();
        String problem = check(field, normalised);
        if (problem != null) {
            return new Result(EditableFieldUpdate.refused(fieldName, problem, field.value()), this);
        }
        List<EditableField> next = new ArrayList<>(fields.values());
        next.replaceAll(f -> f.name().equals(fieldName) ? f.withValue(normalised) : f);
        return new Result(EditableFieldUpdate.applied(fieldName, field.value(), normalised), new EditableStatus(next));
    }

    private String check(EditableField field, String value) {
        for (String dependency : field.dependsOn()) {
            EditableField other = fields.get(dependency);
            if (other != null && other.value() == null) {
                return "Field '" + field.name() + "' depends on '" + dependency + "', which is not set yet";
            }
        }
        if (value == null || value.isEmpty()) {
            return field.nullable() ? null : "Field '" + field.name() + "' cannot be empty";
        }
        return switch (field.type()) {
            case STRING -> field.max() != null && value.length() > field.max().intValue()
                    ? "Field '" + field.name() + "' must be at most " + field.max().intValue() + " characters (got " + value.length() + ")"
                    : null;
            case BOOLEAN -> value.equals("true") || value.equals("false")
                    ? null : "Field '" + field.name() + "' must be true or false";
            case ENUM -> field.enumValues().contains(value)
                    ? null : "Field '" + field.name() + "' must be one of " + String.join(", ", field.enumValues());
            case NUMBER -> checkNumber(field, value);
        };
    }

    private static String checkNumber(EditableField field, String value) {
        BigDecimal number;
        try {
            if (value.length() > 40) {
                throw new NumberFormatException();
            }
            number = new BigDecimal(value);
        } catch (NumberFormatException e) {
            return "Field '" + field.name() + "' must be a number";
        }
        if (field.integer() && number.stripTrailingZeros().scale() > 0) {
            return "Field '" + field.name() + "' must be a whole number";
        }
        if (field.min() != null && number.compareTo(field.min()) < 0
                || field.max() != null && number.compareTo(field.max()) > 0) {
            return "Field '" + field.name() + "' must be between " + plain(field.min()) + " and " + plain(field.max());
        }
        return null;
    }

    private static String plain(BigDecimal n) {
        return n == null ? "any" : n.toPlainString();
    }

    /**
     * The prompt block: one line per field with its current value and what a valid value is, e.g.
     * {@code page_size: 25 [number, whole number between 1 and 500]}.
     */
    public String render() {
        StringBuilder out = new StringBuilder();
        for (EditableField f : fields.values()) {
            out.append("- ").append(f.name()).append(": ")
                    .append(f.value() == null ? "(not set)" : quote(f))
                    .append(" [").append(f.type().wireName());
            if (f.type() == EditableFieldType.ENUM) {
                out.append(", one of ").append(String.join(" | ", f.enumValues()));
            }
            if (f.constraint() != null && !f.constraint().isBlank()) {
                out.append(", ").append(f.constraint());
            }
            if (!f.dependsOn().isEmpty()) {
                out.append(", depends on ").append(String.join(", ", f.dependsOn()));
            }
            if (f.readonly()) {
                out.append(", read-only");
            }
            out.append("]");
            if (f.description() != null && !f.description().isBlank()) {
                out.append(" ").append(f.description());
            }
            out.append('\n');
        }
        return out.toString();
    }

    private static String quote(EditableField f) {
        return f.type() == EditableFieldType.STRING ? "\"" + f.value().replace("\"", "\\\"") + "\"" : f.value();
    }
}
