package dev.tablewright.tools;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.config.TableConfig;
import dev.tablewright.configstore.ConfigNameTakenException;
import dev.tablewright.configstore.ConfigNotFoundException;
import dev.tablewright.configstore.ConfigStore;
import dev.tablewright.configstore.StoredConfigJson;
import dev.tablewright.configstore.VersionConflictException;
import dev.tablewright.failure.DomainFailure;
import dev.tablewright.failure.ErrorCode;
import dev.tablewright.json.Json;
import dev.tablewright.toolcontract.CallKey;
import dev.tablewright.toolcontract.Tool;
import dev.tablewright.toolcontract.ToolArguments;
import dev.tablewright.toolcontract.ToolDefinition;
import dev.tablewright.toolcontract.ToolFailures;
import dev.tablewright.toolcontract.ToolInvocation;
import dev.tablewright.toolcontract.ToolOutcome;
import dev.tablewright.validation.ConfigValidator;
import dev.tablewright.validation.ValidationError;
import dev.tablewright.validation.ValidationReport;

import java.util.List;

/**
 * A tool over the user's saved configs: it answers for the invocation's user (a call without one is refused), reads
 * its arguments with {@link ToolArguments}, and answers the arguments' and the store's failures as tool errors the
 * model can act on. Subclasses say only what they do ({@link #answer}); a saved config is answered as
 * {@link StoredConfigJson} writes it, as the {@code /configs} routes do.
 */
abstract class ConfigStoreTool implements Tool {

    /** Thrown inside a tool for bad arguments; {@link #run} turns it into the error outcome. */
    static final class BadArguments extends DomainFailure {
        BadArguments(String field, String message) {
            this(List.of(new ValidationError(field, message)));
        }

        BadArguments(List<ValidationError> errors) {
            super(Kind.INVALID, ErrorCode.INVALID_ARGUMENTS, errors.isEmpty() ? "invalid arguments" : errors.get(0).field() + ": "
                    + errors.get(0).message() + (errors.size() > 1 ? " (and " + (errors.size() - 1) + " more)" : ""), errors, false);
        }
    }

    private final ToolDefinition definition;
    protected final ConfigStore configs;

    ConfigStoreTool(ToolDefinition definition, ConfigStore configs) {
        this.definition = definition;
        this.configs = configs;
    }

    @Override
    public final ToolDefinition definition() {
        return definition;
    }

    /**
     * The tool's answer for {@code owner}; throws {@link BadArguments} or the store's failures to refuse.
     * {@code callKey}: the call's key ({@link CallKey}), by which a tool with an effect makes it once; null for a bare invocation.
     */
    protected abstract JsonNode answer(String owner, ToolArguments args, String callKey);

    /** Answers the store's and the arguments' failures as error outcomes. */
    @Override
    public final ToolOutcome execute(ToolInvocation invocation) {
        try {
            return ToolOutcome.ok(answer(owner(invocation), ToolArguments.of(invocation),
                    CallKey.of(invocation).map(CallKey::digest).orElse(null)));
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
    private static String owner(ToolInvocation invocation) {
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

    /** The config as the create and update tools store it: valid by ConfigValidator (warnings are fine). */
    static TableConfig validConfig(ToolArguments args, String field) {
        TableConfig config = args.config(field);
        require(args);
        ValidationReport report = ConfigValidator.validate(config);
        if (!report.valid()) {
            throw new BadArguments(report.errors());
        }
        return config;
    }
}
