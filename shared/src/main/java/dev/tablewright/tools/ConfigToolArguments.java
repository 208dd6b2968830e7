package dev.tablewright.tools;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.config.TableConfig;
import dev.tablewright.configstore.ConfigNameTakenException;
import dev.tablewright.configstore.ConfigNotFoundException;
import dev.tablewright.configstore.InvalidConfigException;
import dev.tablewright.configstore.InvalidCursorException;
import dev.tablewright.configstore.StoredConfig;
import dev.tablewright.configstore.VersionConflictException;
import dev.tablewright.json.Json;
import dev.tablewright.store.StoreUnavailableException;
import dev.tablewright.tool.ToolError;
import dev.tablewright.tool.ToolInvocation;
import dev.tablewright.tool.ToolOutcome;
import dev.tablewright.validation.ValidationError;

import java.util.List;
import java.util.Optional;

/**
 * What the config tools share: reading their arguments (each problem an {@code invalid_arguments} error naming
 * the argument), the answer shape of a stored config, and the store's failures as tool errors the model can act on.
 */
final class ConfigToolArguments {

    /** Thrown inside a tool for bad arguments; {@link #run} turns it into the error outcome. */
    static final class BadArguments extends RuntimeException {
        final List<ValidationError> errors;

        BadArguments(String field, String message) {
            super(field + ": " + message, null, false, false);
            this.errors = List.of(new ValidationError(field, message));
        }
    }

    private ConfigToolArguments() {
    }

    static ObjectNode schema(String json) {
        try {
            return (ObjectNode) Json.parse(json);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("bad built-in schema", e);
        }
    }

    /** Runs a tool body, answering the store's and the arguments' failures as error outcomes. */
    static ToolOutcome run(java.util.function.Supplier<JsonNode> body) {
        try {
            return ToolOutcome.ok(body.get());
        } catch (BadArguments e) {
            return ToolOutcome.error(new ToolError("invalid_arguments", e.getMessage(), e.errors));
        } catch (InvalidConfigException e) {
            return ToolOutcome.error(new ToolError("invalid_arguments", e.getMessage(), e.errors()));
        } catch (InvalidCursorException e) {
            return ToolOutcome.error(new ToolError("invalid_arguments", "cursor: " + e.getMessage(),
                    List.of(new ValidationError("cursor", e.getMessage()))));
        } catch (ConfigNotFoundException e) {
            return ToolOutcome.error("not_found", e.getMessage() + "; list_table_configs shows the saved configs");
        } catch (VersionConflictException e) {
            return ToolOutcome.error("conflict", e.getMessage() + ". Call get_table_config for the current version "
                    + "and build the change on it.");
        } catch (ConfigNameTakenException e) {
            return ToolOutcome.error("conflict", e.getMessage() + "; choose another name or change that config");
        } catch (StoreUnavailableException e) {
            return ToolOutcome.error("unavailable", "the config store is busy or unreachable; try again shortly");
        }
    }

    /** The caller: configs belong to a user, so a call without one (a bare invocation) is refused. */
    static String owner(ToolInvocation invocation) {
        if (invocation.userId() == null || invocation.userId().isBlank()) {
            throw new BadArguments("userId", "configs belong to a user: the invocation envelope must carry userId");
        }
        return invocation.userId();
    }

    static Optional<String> text(ObjectNode args, String name, int maxLength) {
        JsonNode v = args.get(name);
        if (v == null || v.isNull()) {
            return Optional.empty();
        }
        if (!v.isTextual() || v.asText().isBlank()) {
            throw new BadArguments(name, "must be a non-empty string");
        }
        if (v.asText().length() > maxLength) {
            throw new BadArguments(name, "must be at most " + maxLength + " characters");
        }
        return Optional.of(v.asText());
    }

    static Optional<Long> integer(ObjectNode args, String name, long min, long max) {
        JsonNode v = args.get(name);
        if (v == null || v.isNull()) {
            return Optional.empty();
        }
        if (!v.canConvertToExactIntegral() || !v.isNumber()) {
            throw new BadArguments(name, "must be an integer");
        }
        long value = v.asLong();
        if (value < min || value > max) {
            throw new BadArguments(name, "must be between " + min + " and " + max);
        }
        return Optional.of(value);
    }

    static TableConfig config(ObjectNode args, String name) {
        JsonNode v = args.get(name);
        if (v == null || v.isNull()) {
            throw new BadArguments(name, "is required");
        }
        if (!v.isObject()) {
            throw new BadArguments(name, "must be a config object (the Config wire format)");
        }
        try {
            return Json.MAPPER.treeToValue(v, TableConfig.class);
        } catch (JsonProcessingException | IllegalArgumentException e) {
            String where = name;
            if (e instanceof com.fasterxml.jackson.databind.JsonMappingException m) {
                StringBuilder path = new StringBuilder(name);
                for (var ref : m.getPath()) {
                    path.append(ref.getFieldName() != null ? "." + ref.getFieldName() : "[" + ref.getIndex() + "]");
                }
                where = path.toString();
            }
            throw new BadArguments(where, "does not fit the Config wire format");
        }
    }

    /** A stored config as the tools answer it. */
    static ObjectNode view(StoredConfig stored) {
        ObjectNode out = Json.object();
        out.put("config_id", stored.configId());
        if (stored.name() != null) {
            out.put("name", stored.name());
        }
        out.put("version", stored.version());
        out.put("updated_at", stored.updatedAt().toString());
        out.set("config", Json.tree(stored.config()));
        return out;
    }
}
