package dev.tablewright.tools;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.catalogue.DatabaseToolDefinitions;
import dev.tablewright.codec.ConfigDiffJson;
import dev.tablewright.codec.ConfigJson;
import dev.tablewright.config.ColumnSettings;
import dev.tablewright.config.ConfigDiff;
import dev.tablewright.config.TableConfig;
import dev.tablewright.failure.ErrorCode;
import dev.tablewright.grounding.ResultColumn;
import dev.tablewright.id.IdGenerator;
import dev.tablewright.json.Json;
import dev.tablewright.preview.PendingPreview;
import dev.tablewright.preview.PreviewStore;
import dev.tablewright.reference.PgTypeMapping;
import dev.tablewright.sql.BoundValue;
import dev.tablewright.sql.CompiledQuery;
import dev.tablewright.sql.Database;
import dev.tablewright.sql.Databases;
import dev.tablewright.sql.QueryFailure;
import dev.tablewright.sql.SampleRunner;
import dev.tablewright.sql.SqlCompiler;
import dev.tablewright.toolcontract.CallKey;
import dev.tablewright.toolcontract.ToolEffect;
import dev.tablewright.toolcontract.ToolInvocation;
import dev.tablewright.toolcontract.ToolOutcome;
import dev.tablewright.validation.ConfigValidator;
import dev.tablewright.validation.ValidationError;
import dev.tablewright.validation.ValidationReport;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code preview_table_config}: validate a config, ground it in the live catalogue, compile it to SQL, have
 * PostgreSQL plan it, run a sample in a read-only transaction with a statement timeout, render the values as the
 * table will, diff it against the config it changes, and store it as a pending preview the user accepts or rejects.
 *
 * <p>Answers {@code {"valid": false, "errors": [...]}} (fields point into the config) when any step refuses the
 * config, the way the operation tools do, so the model can repair it; {@code unavailable} when the database cannot
 * be reached.
 */
public final class PreviewTableConfigTool extends LiveDatabaseTool {

    public static final int DEFAULT_SAMPLE_ROWS = 10;

    /** Reads the saved config a preview changes (the config store); empty when there is none for this owner. */
    @FunctionalInterface
    public interface BaseConfigs {
        Optional<TableConfig> current(String ownerId, String configId);

        /** The id of the owner's saved config with this name (names are unique per owner); empty when none or unknown. */
        default Optional<String> idNamed(String ownerId, String name) {
            return Optional.empty();
        }
    }

    private final PreviewStore previews;
    private final BaseConfigs baseConfigs;
    private final Clock clock;
    private final int sampleRows;
    private final Duration previewTtl;
    private final IdGenerator previewIds;

    /** Preview ids from the call ({@link CallKey}), so a call run twice saves one preview; random for a bare invocation. */
    public PreviewTableConfigTool(Databases databases, PreviewStore previews, BaseConfigs baseConfigs, Clock clock,
                              int sampleRows, Duration previewTtl) {
        this(databases, previews, baseConfigs, clock, sampleRows, previewTtl, null);
    }

    /** @param previewIds where new preview ids come from (a test's); null: the call's, else random */
    public PreviewTableConfigTool(Databases databases, PreviewStore previews, BaseConfigs baseConfigs, Clock clock,
                              int sampleRows, Duration previewTtl, IdGenerator previewIds) {
        super(DatabaseToolDefinitions.PREVIEW_TABLE_CONFIG, databases);
        this.previewIds = previewIds;
        this.previews = previews;
        this.baseConfigs = baseConfigs;
        this.clock = clock;
        this.sampleRows = sampleRows;
        this.previewTtl = previewTtl;
    }

    /** Refusals (the config, its names, the plan) answer {@code valid: false}; the store's failures reach the base. */
    @Override
    protected ToolOutcome answer(Database database, ToolInvocation invocation) {
        if (invocation.userId() == null || invocation.userId().isBlank()) {
            return ToolOutcome.error(ErrorCode.INVALID_ARGUMENTS, "the invocation names no userId: a preview belongs to a user");
        }
        JsonNode args = arguments(invocation);
        JsonNode configNode = invocation.config(); // the arguments' config, else the chat's working config
        if (configNode == null || !configNode.isObject()) {
            return ToolOutcome.error(ErrorCode.INVALID_ARGUMENTS, "config is required: the complete proposed table config");
        }
        List<ValidationError> warnings = new ArrayList<>();

        ConfigJson.Read read = ConfigJson.read(configNode);
        if (!read.ok()) {
            return invalid(read.errors(), warnings, null);
        }
        TableConfig config = read.config();
        ValidationReport report = ConfigValidator.validate(config);
        warnings.addAll(report.warnings());
        if (!report.valid()) {
            return invalid(report.errors(), warnings, null);
        }

        // The config it changes (update) or none (create).
        TableConfig base = null;
        String configId = config.id() == null || config.id().isBlank() ? null : config.id();
        if (baseConfigs != null && config.name() != null) {
            // a name another saved config holds would only fail at accept: say so now, while the model can fix it
            Optional<String> holder = baseConfigs.idNamed(invocation.userId(), config.name());
            if (holder.isPresent() && !holder.get().equals(configId)) {
                return invalid(List.of(new ValidationError("name", "a saved config is already named '" + shorten(config.name())
                        + "' (" + shorten(holder.get()) + "): pick another name, or set id to " + shorten(holder.get())
                        + " to change that config")), warnings, null);
            }
        }
        Long baseVersion = null;
        if (configId != null) {
            if (baseConfigs != null) {
                Optional<TableConfig> found = baseConfigs.current(invocation.userId(), configId);
                if (found.isEmpty()) {
                    return ToolOutcome.error(ErrorCode.NOT_FOUND, "config '" + shorten(configId) + "' does not exist for this user;"
                            + " leave id out to preview a new config");
                }
                base = found.get();
                baseVersion = base.version() == null ? 0L : base.version();
                if (config.version() != null && !config.version().equals(baseVersion)) {
                    warnings.add(new ValidationError("version", "this config was built on version " + config.version()
                            + " but the saved config is at version " + baseVersion + ": the diff is against version " + baseVersion));
                }
            } else if (config.version() != null) {
                baseVersion = config.version();
                warnings.add(new ValidationError("", "the saved config could not be read: the diff is against an empty config"));
            } else {
                configId = null;
            }
        }

        SqlCompiler.Compilation compilation = SqlCompiler.compile(config, database.catalog(), sampleRows);
        warnings.addAll(compilation.warnings());
        if (!compilation.ok()) {
            return invalid(compilation.errors(), warnings, null);
        }
        CompiledQuery query = compilation.query();
        SampleRunner.Result result;
        try {
            result = database.runner().planAndSample(query);
        } catch (QueryFailure f) {
            if (f.kind() == QueryFailure.Kind.UNAVAILABLE) {
                return ToolOutcome.error(ErrorCode.UNAVAILABLE, f.getMessage());
            }
            String field = f.field() != null ? f.field() : "data_source[0]";
            return invalid(List.of(new ValidationError(field, f.getMessage())), warnings, query);
        }
        result.plan().warnings().forEach(w -> warnings.add(new ValidationError("data_source[0]", w)));
        List<ObjectNode> rows = SampleRendering.rows(result.sample(), query.columns(), config.visualSettings(), warnings);
        ConfigDiff diff = ConfigDiff.between(base, config);
        String description = args.path("description").isTextual() && !args.path("description").asText().isBlank()
                ? args.path("description").asText() : describe(diff, base == null);

        ObjectNode summary = Json.object();
        summary.put("database", database.name());
        summary.set("diff", ConfigDiffJson.write(diff));
        summary.put("sql", query.sql());
        summary.put("plan", result.plan().summary());
        summary.set("warnings", Json.tree(warnings));
        // a call run again (a retried Invoke, a resumed turn) has the same id: the store answers the first preview
        IdGenerator ids = previewIds != null ? previewIds : CallKey.of(invocation)
                .<IdGenerator>map(key -> now -> key.id("prv")).orElse(PendingPreview.IDS);
        PendingPreview preview = previews.save(PendingPreview.create(ids, invocation.userId(), invocation.conversationId(),
                configId, baseVersion, description, config, summary, clock.instant(), previewTtl));

        ObjectNode out = Json.object();
        out.put("valid", true);
        out.put("previewId", preview.previewId());
        out.put("configId", configId);
        out.put("isUpdate", configId != null);
        if (baseVersion != null) {
            out.put("baseVersion", baseVersion);
        } else {
            out.putNull("baseVersion");
        }
        out.put("description", description);
        out.put("database", database.name());
        out.set("config", ConfigJson.write(config));
        out.set("diff", ConfigDiffJson.write(diff));
        sql(out, query);
        ObjectNode plan = out.putObject("plan");
        plan.put("summary", result.plan().summary());
        plan.put("estimatedRows", result.plan().estimatedRows());
        plan.put("cost", result.plan().totalCost());
        out.set("columns", columns(query, config));
        ArrayNode sample = out.putArray("rows");
        rows.forEach(sample::add);
        out.put("more", result.sample().more());
        out.set("warnings", Json.tree(warnings));
        out.put("expiresAt", preview.expiresAt().toString());
        return ToolOutcome.ok(out, new ToolEffect.Previewed(preview.previewId(), out.get("config")));
    }

    private static ToolOutcome invalid(List<ValidationError> errors, List<ValidationError> warnings, CompiledQuery query) {
        ObjectNode out = Json.object();
        out.put("valid", false);
        out.set("errors", Json.tree(errors));
        out.set("warnings", Json.tree(warnings));
        if (query != null) {
            sql(out, query);
        }
        return ToolOutcome.ok(out, new ToolEffect.InvalidConfig(errors));
    }

    private static void sql(ObjectNode out, CompiledQuery query) {
        out.put("sql", query.sql());
        ArrayNode params = out.putArray("parameters");
        for (BoundValue v : query.parameters()) {
            params.add(v.text());
        }
    }

    private static ArrayNode columns(CompiledQuery query, TableConfig config) {
        ArrayNode out = Json.MAPPER.createArrayNode();
        for (ResultColumn c : query.columns()) {
            ColumnSettings s = config.visualSettings() == null || config.visualSettings().columns() == null
                    ? null : config.visualSettings().columns().get(c.key());
            ObjectNode o = out.addObject();
            o.put("key", c.key());
            o.put("header", s != null && s.header() != null ? s.header() : c.key());
            o.put("type", s != null && s.type() != null ? s.type()
                    : PgTypeMapping.of(c.column().pgType(), c.column().userDefinedEnum()).visualType().wireName());
            o.put("pgType", c.column().pgType());
            if (s != null && s.isHidden()) {
                o.put("hidden", true);
            }
        }
        return out;
    }

    /** A description from the diff when the model gave none. */
    static String describe(ConfigDiff diff, boolean creates) {
        List<String> parts = new ArrayList<>();
        part(parts, "adds column", diff.columns().added());
        part(parts, "removes column", diff.columns().removed());
        part(parts, "adds join", diff.joins().added());
        part(parts, "removes join", diff.joins().removed());
        part(parts, "adds filter", diff.filters().added());
        part(parts, "removes filter", diff.filters().removed());
        part(parts, "sorts by", diff.sorts().added());
        if (!diff.columns().changed().isEmpty()) {
            parts.add("changes column settings");
        }
        String text = parts.isEmpty() ? "no change" : String.join("; ", parts);
        return (creates ? "New table config: " : "") + text;
    }

    private static void part(List<String> parts, String verb, List<String> keys) {
        if (!keys.isEmpty()) {
            parts.add(verb + (keys.size() > 1 ? "s " : " ") + String.join(", ", keys));
        }
    }

    private static String shorten(String s) {
        return s.length() > 60 ? s.substring(0, 60) + "…" : s;
    }
}
