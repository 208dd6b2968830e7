package dev.tablewright.tools;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.config.ColumnSettings;
import dev.tablewright.config.VisualSettings;
import dev.tablewright.json.Json;
import dev.tablewright.reference.PgTypeMapping;
import dev.tablewright.reference.VisualType;
import dev.tablewright.grounding.ResultColumn;
import dev.tablewright.sql.SampleRows;
import dev.tablewright.validation.ValidationError;

import java.math.BigDecimal;
import java.text.DecimalFormat;
import java.text.DecimalFormatSymbols;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.temporal.TemporalAccessor;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * Renders sample values as the table will show them: per column, its visual type (from visual_settings, else mapped
 * from the PostgreSQL type) and its format (a date/time pattern, a number pattern such as {@code #,##0.00} or
 * {@code 0%}, a boolean style {@code true_false}/{@code yes_no}/{@code check}). A format that cannot be applied is
 * reported once as a warning and the value shown plainly. Null stays null.
 */
final class SampleRendering {

    private SampleRendering() {
    }

    static List<ObjectNode> rows(SampleRows sample, List<ResultColumn> columns, VisualSettings visual,
                                 List<ValidationError> warnings) {
        List<Function<Object, String>> renderers = new ArrayList<>();
        for (ResultColumn c : columns) {
            ColumnSettings s = visual == null || visual.columns() == null ? null : visual.columns().get(c.key());
            VisualType type = s == null || s.type() == null ? null : VisualType.parse(s.type()).orElse(null);
            if (type == null) {
                type = PgTypeMapping.of(c.column().pgType(), c.column().userDefinedEnum()).visualType();
            }
            renderers.add(renderer(c.key(), type, s == null ? null : s.format(), warnings));
        }
        List<ObjectNode> out = new ArrayList<>(sample.rows().size());
        for (List<Object> row : sample.rows()) {
            ObjectNode o = Json.object();
            for (int i = 0; i < columns.size(); i++) {
                Object v = row.get(i);
                o.put(columns.get(i).key(), v == null ? null : renderers.get(i).apply(v));
            }
            out.add(o);
        }
        return out;
    }

    private static Function<Object, String> renderer(String key, VisualType type, String format, List<ValidationError> warnings) {
        String field = "visual_settings.columns." + key + ".format";
        switch (type) {
            case DATE, DATETIME, TIME -> {
                if (format == null || format.isBlank()) {
                    return SampleRendering::plain;
                }
                DateTimeFormatter f;
                try {
                    f = DateTimeFormatter.ofPattern(format, Locale.ROOT);
                } catch (IllegalArgumentException e) {
                    warnings.add(new ValidationError(field, "format '" + format + "' is not a date/time pattern; values shown as ISO"));
                    return SampleRendering::plain;
                }
                boolean[] warned = {false};
                return v -> {
                    if (v instanceof TemporalAccessor t && (v instanceof OffsetDateTime || v instanceof LocalDateTime
                            || v instanceof LocalDate || v instanceof LocalTime)) {
                        try {
                            return f.format(t);
                        } catch (RuntimeException e) {
                            if (!warned[0]) {
                                warned[0] = true;
                                warnings.add(new ValidationError(field, "format '" + format
                                        + "' does not fit this column's values; shown as ISO"));
                            }
                        }
                    }
                    return plain(v);
                };
            }
            case NUMBER -> {
                if (format == null || format.isBlank()) {
                    return SampleRendering::plain;
                }
                DecimalFormat f;
                try {
                    f = new DecimalFormat(format, DecimalFormatSymbols.getInstance(Locale.ROOT));
                } catch (IllegalArgumentException e) {
                    warnings.add(new ValidationError(field, "format '" + format + "' is not a number pattern; values shown plainly"));
                    return SampleRendering::plain;
                }
                return v -> v instanceof Number n ? f.format(n instanceof BigDecimal b ? b : new BigDecimal(n.toString())) : plain(v);
            }
            case BOOLEAN -> {
                String style = format == null ? "true_false" : format;
                return v -> {
                    if (!(v instanceof Boolean b)) {
                        return plain(v);
                    }
                    return switch (style) {
                        case "yes_no" -> b ? "Yes" : "No";
                        case "check" -> b ? "✓" : "✗";
                        default -> b.toString();
                    };
                };
            }
            default -> {
                return SampleRendering::plain;
            }
        }
    }

    private static String plain(Object v) {
        if (v instanceof BigDecimal b) {
            return b.toPlainString();
        }
        return String.valueOf(v);
    }
}
