package dev.tablewright.tools;

import dev.tablewright.catalogue.OperationToolDefinitions;
import dev.tablewright.config.TableConfig;
import dev.tablewright.grounding.ConfigGrounder;
import dev.tablewright.operations.OperationResult;
import dev.tablewright.schema.SchemaCatalog;
import dev.tablewright.schema.SchemaCatalogs;
import dev.tablewright.toolcontract.ToolArguments;
import dev.tablewright.toolcontract.ToolDefinition;
import dev.tablewright.validation.ConfigValidator;
import dev.tablewright.validation.ValidationCollector;
import dev.tablewright.validation.ValidationReport;

import java.util.List;

/**
 * {@code validate_table_config}: a dry run of ConfigValidator (plus, with a catalogue, a check of every name against
 * the database). Changes nothing; answers in the operation tools' shape, echoing the config when it is valid.
 */
public final class ValidateTableConfigTool extends OperationTool {

    private final SchemaCatalogs catalogs;

    public ValidateTableConfigTool() {
        this((SchemaCatalog) null);
    }

    /** @param catalog live schema to check names against; null checks structure only (with a warning) */
    public ValidateTableConfigTool(SchemaCatalog catalog) {
        this(SchemaCatalogs.of(catalog));
    }

    /** @param catalogs live schema per data source: names are checked against the conversation's chosen one */
    public ValidateTableConfigTool(SchemaCatalogs catalogs) {
        this.catalogs = catalogs == null ? SchemaCatalogs.NONE : catalogs;
    }

    @Override
    public ToolDefinition definition() {
        return OperationToolDefinitions.VALIDATE_TABLE_CONFIG;
    }

    @Override
    protected OperationResult run(ToolArguments args, String dataSource) {
        TableConfig config = args.config("config");
        if (!args.ok()) {
            return null;
        }
        return validate(config, catalogs.forDataSource(dataSource));
    }

    /** ConfigValidator, then grounding when the structure is sound. */
    public static OperationResult validate(TableConfig config, SchemaCatalog catalog) {
        ValidationReport structure = ConfigValidator.validate(config);
        ValidationCollector all = new ValidationCollector();
        all.addAll(structure);
        if (structure.valid()) {
            all.addAll(ConfigGrounder.check(config, catalog));
        }
        ValidationReport report = all.report();
        return report.valid()
                ? OperationResult.valid(config, report.warnings(), List.of())
                : OperationResult.invalid(report.errors(), report.warnings());
    }
}
