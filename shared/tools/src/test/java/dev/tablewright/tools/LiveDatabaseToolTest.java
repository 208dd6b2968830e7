package dev.tablewright.tools;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.failure.ErrorCode;
import dev.tablewright.fixtures.FixtureCatalog;
import dev.tablewright.fixtures.Fixtures;
import dev.tablewright.json.Json;
import dev.tablewright.schema.CatalogUnavailableException;
import dev.tablewright.schema.SchemaCatalog;
import dev.tablewright.schema.TableInfo;
import dev.tablewright.sql.Database;
import dev.tablewright.sql.Databases;
import dev.tablewright.toolcontract.Tool;
import dev.tablewright.toolcontract.ToolInvocation;
import dev.tablewright.toolcontract.ToolOutcome;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What both database tools do before their own work, through {@link LiveDatabaseTool}: the choice of database
 * declared and asked for, an unknown name refused, and an unreachable database answered as {@code unavailable}.
 * (Their work on a real database: infra/system-tests, {@code database/*}.)
 */
class LiveDatabaseToolTest {

    /** {@code production} answers from the fixture catalogue; {@code staging} cannot be reached. */
    private static final Databases TWO = new Databases() {
        @Override
        public List<String> names() {
            return List.of("production", "staging");
        }

        @Override
        public Optional<Database> find(String name) {
            return switch (name) {
                case "production" -> Optional.of(new Database(name, new FixtureCatalog(), null));
                case "staging" -> Optional.of(new Database(name, new Unreachable(), null));
                default -> Optional.empty();
            };
        }
    };

    private static final List<Tool> TOOLS = List.of(new SearchDatabaseSchemaTool(TWO),
            new PreviewTableConfigTool(TWO, null, null, Clock.systemUTC(), 10, Duration.ofHours(1)));

    @Test
    void severalDataSourcesAreDeclaredAndAskedForBeforeTheToolRuns() {
        for (Tool tool : TOOLS) {
            assertEquals(List.of("production", "staging"), tool.definition().requiresUserInput().fields().get(0).options(),
                    tool.definition().name());
            ToolOutcome asked = call(tool, arguments(), Map.of());
            assertEquals(ToolOutcome.Status.NEEDS_INPUT, asked.status(), tool.definition().name());
            assertEquals("database", assertInstanceOf(ToolOutcome.NeedsInput.class, asked).request().fields().get(0).name());
        }
    }

    @Test
    void aDatabaseThatIsNotConfiguredIsRefusedByName() {
        for (Tool tool : TOOLS) {
            ToolOutcome refused = call(tool, arguments().put("database", "prod'; --"), Map.of());
            assertEquals(ErrorCode.INVALID_ARGUMENTS, assertInstanceOf(ToolOutcome.Failed.class, refused).error().code(), tool.definition().name());
            assertTrue(assertInstanceOf(ToolOutcome.Failed.class, refused).error().message().contains("production, staging"), assertInstanceOf(ToolOutcome.Failed.class, refused).error().message());
        }
    }

    @Test
    void anUnreachableDatabaseAnswersUnavailableInsteadOfThrowing() {
        for (Tool tool : TOOLS) {
            ToolOutcome outcome = call(tool, arguments(), Map.of("database", "staging"));
            assertEquals(ErrorCode.UNAVAILABLE, assertInstanceOf(ToolOutcome.Failed.class, outcome).error().code(), tool.definition().name());
        }
    }

    @Test
    void theChosenDatabaseIsTheOneTheToolWorksOn() {
        ToolOutcome searched = call(TOOLS.get(0), Json.object().put("schema", "core"), Map.of("database", "production"));
        assertEquals("production", assertInstanceOf(ToolOutcome.Ok.class, searched).output().path("database").asText());
        assertEquals("users", assertInstanceOf(ToolOutcome.Ok.class, searched).output().path("tables").path(0).path("name").asText());
    }

    private static ObjectNode arguments() {
        ObjectNode args = Json.object();
        args.set("config", Fixtures.ordersNode());
        return args;
    }

    private static ToolOutcome call(Tool tool, ObjectNode arguments, Map<String, String> session) {
        return tool.execute(new ToolInvocation(tool.definition().name(), "call_1", "c_1", "u_1", arguments, session));
    }

    /** A catalogue whose database does not answer, as the JDBC catalogue reports it. */
    private static final class Unreachable implements SchemaCatalog {
        @Override
        public List<String> schemas() {
            throw new CatalogUnavailableException("the database did not answer", null);
        }

        @Override
        public List<TableInfo> tables(String schema) {
            throw new CatalogUnavailableException("the database did not answer", null);
        }

        @Override
        public Optional<TableInfo> table(String schema, String table) {
            throw new CatalogUnavailableException("the database did not answer", null);
        }
    }
}
