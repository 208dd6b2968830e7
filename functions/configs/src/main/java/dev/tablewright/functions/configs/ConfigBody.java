package dev.tablewright.functions.configs;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.codec.ConfigJson;
import dev.tablewright.config.TableConfig;
import dev.tablewright.lambda.HttpApiException;
import dev.tablewright.grounding.ConfigGrounder;
import dev.tablewright.schema.SchemaCatalog;
import dev.tablewright.validation.ValidateConfig;
import dev.tablewright.validation.ValidationError;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The body of {@code POST /configs} and {@code PUT /configs/{id}}, read the one way a config is read everywhere
 * ({@link ConfigJson}) and checked before anything is stored: every wrong type, every broken invariant
 * ({@link ValidateConfig}) and, where the function has a database to ask, every name that does not exist
 * ({@link ConfigGrounder}), all named at once in one 400.
 *
 * @param baseVersion the version the change builds on (PUT), null for POST
 */
record ConfigBody(Long baseVersion, TableConfig config) {

    static ConfigBody read(JsonNode body, boolean withBaseVersion, SchemaCatalog catalog) {
        List<ValidationError> errors = new ArrayList<>();
        Set<String> known = withBaseVersion ? Set.of("baseVersion", "config") : Set.of("config");
        body.fieldNames().forEachRemaining(f -> {
            if (!known.contains(f)) {
                errors.add(new ValidationError(f, "unknown field '" + f + "'"));
            }
        });
        Long baseVersion = null;
        if (withBaseVersion) {
            JsonNode v = body.get("baseVersion");
            if (v == null || v.isNull()) {
                errors.add(new ValidationError("baseVersion", "baseVersion is required: the version this change builds on"));
            } else if (!v.isIntegralNumber() || !v.canConvertToLong() || v.longValue() < 1) {
                errors.add(new ValidationError("baseVersion", "baseVersion must be a whole number of 1 or more, got " + v));
            } else {
                baseVersion = v.longValue();
            }
        }
        TableConfig config = null;
        JsonNode node = body.get("config");
        if (node == null || node.isNull()) {
            errors.add(new ValidationError("config", "config is required"));
        } else {
            ConfigJson.Read read = ConfigJson.read(node);
            read.errors().forEach(e -> errors.add(prefixed(e)));
            if (read.ok()) {
                config = read.config();
                ValidateConfig.validate(config).errors().forEach(e -> errors.add(prefixed(e)));
                if (catalog != null && errors.isEmpty()) {
                    ConfigGrounder.check(config, catalog).errors().forEach(e -> errors.add(prefixed(e)));
                }
            }
        }
        if (!errors.isEmpty()) {
            throw HttpApiException.invalid(errors.size() == 1 ? errors.getFirst().message()
                    : errors.size() + " fields are not valid", errors);
        }
        return new ConfigBody(baseVersion, config);
    }

    private static ValidationError prefixed(ValidationError e) {
        return new ValidationError(e.field() == null || e.field().isEmpty() || e.field().equals("config") ? "config"
                : "config." + e.field(), e.message());
    }
}
