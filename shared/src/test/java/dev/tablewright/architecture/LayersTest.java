package dev.tablewright.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import dev.tablewright.config.crossing.ConfigThatWritesToDynamoDb;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The layers of {@code shared}: the domain (config, validation, operations, grounding, SQL, previews, the stores'
 * ports, user input, conversations, tools) depends on no adapter ({@code dynamodb}, {@code postgres}, {@code lambda})
 * and on no AWS, Lambda, JDBC or PostgreSQL class. The adapters depend on the domain, never the other way.
 */
class LayersTest {

    static final String[] DOMAIN = {"dev.tablewright.chat..", "dev.tablewright.config..", "dev.tablewright.configstore..",
            "dev.tablewright.conversation..", "dev.tablewright.editable..", "dev.tablewright.id..", "dev.tablewright.json..",
            "dev.tablewright.operations..", "dev.tablewright.preview..", "dev.tablewright.reference..", "dev.tablewright.schema..",
            "dev.tablewright.sql..", "dev.tablewright.store..", "dev.tablewright.tool..", "dev.tablewright.tools..",
            "dev.tablewright.userinput..", "dev.tablewright.validation.."};

    static final String[] ADAPTERS_AND_PLATFORM = {"dev.tablewright.dynamodb..", "dev.tablewright.postgres..",
            "dev.tablewright.lambda..", "software.amazon..", "com.amazonaws..", "java.sql..", "javax.sql..", "org.postgresql.."};

    static final ArchRule DOMAIN_STAYS_OUT_OF_ADAPTERS = noClasses().that().resideInAnyPackage(DOMAIN)
            // Known, and the one left: the data-source tools read DATA_SOURCES through Env when their definitions
            // are built. Typed settings passed in at wiring time would remove it.
            .and().doNotHaveFullyQualifiedName("dev.tablewright.tools.DataSourceSelection")
            .should().dependOnClassesThat().resideInAnyPackage(ADAPTERS_AND_PLATFORM)
            .because("the domain must build and run without AWS, Lambda or a database driver");

    @Test
    void theDomainDependsOnNoAdapterAndNoPlatformLibrary() {
        JavaClasses shared = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.tablewright");
        assertTrue(shared.size() > 100, "the shared classes were imported: " + shared.size());
        DOMAIN_STAYS_OUT_OF_ADAPTERS.check(shared);
    }

    @Test
    void aDomainClassThatReachesIntoAnAdapterIsRefused() {
        JavaClasses crossing = new ClassFileImporter().importClasses(ConfigThatWritesToDynamoDb.class);
        EvaluationResult result = DOMAIN_STAYS_OUT_OF_ADAPTERS.evaluate(crossing);
        assertTrue(result.hasViolation(), "the rule must catch a domain class using DynamoConfigStore");
        assertTrue(result.getFailureReport().toString().contains("DynamoConfigStore"), result.getFailureReport().toString());
    }
}
