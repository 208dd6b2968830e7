package dev.tablewright.operations;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.codec.ConfigJson;
import dev.tablewright.config.TableConfig;
import dev.tablewright.json.Json;
import dev.tablewright.validation.ValidationError;

import java.util.List;

/**
 * The one answer shape of every operation tool (docs/table-config.md): {@code valid}, {@code config} (null when invalid),
 * {@code errors}, {@code warnings}, {@code applied} (what the operation did, in words the model can repeat).
 * A result is never valid with errors, and never carries a config that failed validation.
 */
public record OperationResult(boolean valid, TableConfig config, List<ValidationError> errors,
                              List<ValidationError> warnings, List<String> applied) {

    public OperationResult {
        errors = List.copyOf(errors);
        warnings = List.copyOf(warnings);
        applied = List.copyOf(applied);
        if (valid && (config == null || !errors.isEmpty())) {
            throw new IllegalArgumentException("a valid result has a config and no errors");
        }
        if (!valid && (config != null || errors.isEmpty())) {
            throw new IllegalArgumentException("an invalid result has errors and no config");
        }
    }

    public static OperationResult valid(TableConfig config, List<ValidationError> warnings, List<String> applied) {
        return new OperationResult(true, config, List.of(), warnings, applied);
    }

    public static OperationResult invalid(List<ValidationError> errors, List<ValidationError> warnings) {
        return new OperationResult(false, null, errors, warnings, List.of());
    }

    /** The JSON answer; {@code config} is written as {@code null} when invalid, as the design's example shows. */
    public ObjectNode toJson() {
        ObjectNode o = Json.object();
        o.put("valid", valid);
        if (config == null) {
            o.putNull("config");
        } else {
            o.set("config", ConfigJson.write(config));
        }
        o.set("errors", errorsJson(errors));
        o.set("warnings", errorsJson(warnings));
        ArrayNode a = o.putArray("applied");
        applied.forEach(a::add);
        return o;
    }

    private static ArrayNode errorsJson(List<ValidationError> list) {
        ArrayNode a = Json.MAPPER.createArrayNode();
        for (ValidationError e : list) {
            a.addObject().put("field", e.field()).put("message", e.message());
        }
        return a;
    }
}
