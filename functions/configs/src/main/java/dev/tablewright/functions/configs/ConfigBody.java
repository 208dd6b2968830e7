package dev.tablewright.functions.configs;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.codec.ConfigJson;
import dev.tablewright.config.TableConfig;
import dev.tablewright.json.JsonFields;
import dev.tablewright.grounding.ConfigGrounder;
import dev.tablewright.schema.SchemaCatalog;
import dev.tablewright.validation.ConfigValidator;
import dev.tablewright.validation.ValidationError;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The body of {@code POST /configs} and {@code PUT /configs/{id}}, read the one way a config is read everywhere
 * ({@link ConfigJson}) and checked before anything is stored: every wrong type, every broken invariant
 * ({@link ConfigValidator}) and, where the function has a database to ask, every name that does not exist
 * ({@link ConfigGrounder}), all named at once in one 400.
 *
 * @param baseVersion the version the change builds on (PUT), null for POST
 */
record ConfigBody(Long baseVersion, TableConfig config) {

    /** A reader for {@link dev.tablewright.lambda.HttpRequest#body}: every problem is named in one 400. */
    static java.util.function.Function<JsonFields, ConfigBody> reader(boolean withBaseVersion, SchemaCatalog catalog) {
        return body -> read(body, withBaseVersion, catalog);
    }

    private static ConfigBody read(JsonFields body, boolean withBaseVersion, SchemaCatalog catalog) {
        body.refuseUnknown(withBaseVersion ? Set.of("baseVersion", "config") : Set.of("config"));
        Long baseVersion = withBaseVersion ? ConfigApiFunction.baseVersion(body) : null;
        JsonNode node = body.value("config");
        if (node == null) {
            body.problem("config", "config is required");
            return null;
        }
        List<ValidationError> errors = new ArrayList<>();
        ConfigJson.Read read = ConfigJson.read(node);
        errors.addAll(read.errors());
        if (read.ok()) {
            errors.addAll(ConfigValidator.validate(read.config()).errors());
            if (catalog != null && errors.isEmpty()) {
                errors.addAll(ConfigGrounder.check(read.config(), catalog).errors());
            }
        }
        errors.forEach(e -> {
            ValidationError p = prefixed(e);
            body.problem(p.field(), p.message());
        });
        return new ConfigBody(baseVersion, read.config());
    }

    private static ValidationError prefixed(ValidationError e) {
        return new ValidationError(e.field() == null || e.field().isEmpty() || e.field().equals("config") ? "config"
                : "config." + e.field(), e.message());
    }
}
