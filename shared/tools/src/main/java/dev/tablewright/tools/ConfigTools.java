package dev.tablewright.tools;

import dev.tablewright.codec.ConfigJson;
import dev.tablewright.tool.ToolFailures;
import dev.tablewright.failure.DomainFailure;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.config.TableConfig;
import dev.tablewright.configstore.ConfigNameTakenException;
import dev.tablewright.configstore.ConfigNotFoundException;
import dev.tablewright.configstore.StoredConfig;
import dev.tablewright.configstore.VersionConflictException;
import dev.tablewright.json.Json;
import dev.tablewright.tool.ToolArguments;
import dev.tablewright.tool.ToolInvocation;
import dev.tablewright.tool.ToolOutcome;
import dev.tablewright.validation.ValidateConfig;
import dev.tablewright.validation.ValidationError;
import dev.tablewright.validation.ValidationReport;

import java.util.List;

/**
 * What the config store tools share: the caller, argument problems and the store's failures as tool errors the model
 * can act on, and the answer shape of a stored config. Arguments are read with {@link ToolArguments}.
 */
final class ConfigTools {

    /** Thrown inside a tool for bad arguments; {@link #run} turns it into the error outcome. */
    static final class BadArguments extends DomainFailure {
        BadArguments(String field, String message) {
            this(List.of(new ValidationError(field, message)));
        }

        BadArguments(List<ValidationError> errors) {
            super(Kind.INVALID, "invalid_arguments", errors.isEmpty() ? "invalid arguments" : errors.get(0).field() + ": "
                    + errors.get(0).message() + (errors.size() > 1 ? " (and " + (errors.size() - 1) + " more)" : ""), errors, false);
        }
    }

    private ConfigTools() {
    }

    /** Runs a tool body, answering the store's and the arguments' failures as error outcomes. */
    static ToolOutcome run(java.util.function.Supplier<JsonNode> body) {
        try {
            return ToolOutcome.ok(body.get());
        } catch (DomainFailure e) { // the arguments' (BadArguments) and the store's refusals
            return ToolFailures.outcome(e, switch (e) {
                case ConfigNotFoundException ignored -> "; list_table_configs shows the saved configs";
                case VersionConflictException ignored -> ". Call get_table_config for the current version and build the change on it.";
                case ConfigNameTakenException ignored -> "; choose another name or change that config";
                default -> "";
            });
        }
    }

    /** The caller: configs belong to a user, so a call without one (a bare invocation) is refused. */
    static String owner(ToolInvocation invocation) {
        if (invocation.userId() == null || invocation.userId().isBlank()) {
            throw new BadArguments("userId", "configs belong to a user: the invocation envelope must carry userId");
        }
        return invocation.userId();
    }

    /** The arguments read so far, or {@link BadArguments} with every problem found. */
    static void require(ToolArguments args) {
        if (!args.ok()) {
            throw new BadArguments(args.errors());
        }
    }

    /** An optional whole-number argument within bounds; null when absent (an error if of the wrong type or out of range). */
    static Long integer(ToolArguments args, String field, long min, long max) {
        JsonNode v = args.raw(field);
        if (v == null) {
            return null;
        }
        if (!v.isIntegralNumber() || !v.canConvertToLong() || v.asLong() < min || v.asLong() > max) {
            args.error(field, field + " must be a whole number from " + min + (max == Long.MAX_VALUE ? " up" : " to " + max)
                    + ", got " + Json.kind(v));
            return null;
        }
        return v.asLong();
    }

    /** The config as the create and update tools store it: valid by ValidateConfig (warnings are fine). */
    static TableConfig validConfig(ToolArguments args, String field) {
        TableConfig config = args.config(field);
        require(args);
        ValidationReport report = ValidateConfig.validate(config);
        if (!report.valid()) {
            throw new BadArguments(report.errors());
        }
        return config;
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
        out.set("config", ConfigJson.write(stored.config()));
        return out;
    }
}
