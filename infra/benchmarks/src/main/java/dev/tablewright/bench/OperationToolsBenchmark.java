package dev.tablewright.bench;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.codec.ConfigJson;
import dev.tablewright.config.TableConfig;
import dev.tablewright.functions.tools.ApplyColumnChangeFunction;
import dev.tablewright.json.Json;
import dev.tablewright.logging.StructuredLog;
import dev.tablewright.toolcontract.Tool;
import dev.tablewright.toolcontract.ToolInvocation;
import dev.tablewright.toolcontract.ToolOutcome;
import dev.tablewright.toolcontract.ToolOutcomeJson;
import dev.tablewright.tools.ApplyColumnChangeTool;
import dev.tablewright.tools.ApplyFilterChangeTool;
import dev.tablewright.tools.ApplyJoinChangeTool;
import dev.tablewright.tools.ApplySortChangeTool;
import dev.tablewright.tools.ValidateTableConfigTool;
import dev.tablewright.validation.ConfigValidator;
import dev.tablewright.validation.ValidationReport;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Warm latency of each operation tool and of ConfigValidator on the 22-column, 3-join orders config (the domain's
 * test fixture, from its test-jar). The tool benchmarks take decoded arguments, as the handler
 * passes them (config as a JSON tree: reading it into the model, the operation, ConfigValidator and writing the
 * answer tree are all inside); {@code handlerBytesToBytes} adds parsing the invocation and writing the response.
 *
 * <p>Run: {@code infra/bin/jmh OperationToolsBenchmark} (see docs/performance.md for the settings used).
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms512m", "-Xmx512m"})
@State(Scope.Benchmark)
public class OperationToolsBenchmark {

    private final Tool columns = new ApplyColumnChangeTool();
    private final Tool filters = new ApplyFilterChangeTool();
    private final Tool joins = new ApplyJoinChangeTool();
    private final Tool sorts = new ApplySortChangeTool();
    private final Tool validate = new ValidateTableConfigTool();
    private ApplyColumnChangeFunction handler;

    private ToolInvocation addColumns;
    private ToolInvocation removeColumn;
    private ToolInvocation addFilter;
    private ToolInvocation addJoin;
    private ToolInvocation removeJoin;
    private ToolInvocation setSort;
    private ToolInvocation validateConfig;
    private TableConfig config;
    private byte[] handlerEvent;

    @Setup
    public void setUp() throws IOException {
        // The handler logs one line per invocation; measure the work, not the terminal.
        StructuredLog.redirect(new PrintStream(OutputStream.nullOutputStream()));
        handler = new ApplyColumnChangeFunction();
        ObjectNode fixture = fixture();
        config = ConfigJson.read(fixture).config();

        ObjectNode a = arguments(fixture, "add");
        ArrayNode cols = a.putArray("columns");
        cols.addObject().put("name", "approved_at").put("pg_type", "timestamp with time zone");
        cols.addObject().put("name", "last_name").put("source_table", "users_approved_by")
                .put("alias", "approver_last_name").put("pg_type", "text");
        addColumns = invocation("apply_column_change", a);

        ObjectNode r = arguments(fixture, "remove");
        r.putArray("columns").addObject().put("name", "total");
        removeColumn = invocation("apply_column_change", r);

        ObjectNode f = arguments(fixture, "add");
        f.putObject("filter").put("column", "approved_at").put("operator", "is_not_null")
                .put("pg_type", "timestamp with time zone").put("label", "Approved only");
        addFilter = invocation("apply_filter_change", f);

        ObjectNode j = arguments(fixture, "add");
        ObjectNode join = j.putObject("join").put("table", "warehouses").put("schema", "core").put("join_type", "LEFT")
                .put("relationship_from", "orders.warehouse_id").put("relationship_to", "warehouses.id");
        join.putArray("columns_to_add").addObject().put("name", "name").put("alias", "warehouse_name").put("pg_type", "text");
        addJoin = invocation("apply_join_change", j);

        ObjectNode rj = arguments(fixture, "remove");
        rj.putObject("join").put("table", "users_approved_by");
        removeJoin = invocation("apply_join_change", rj);

        ObjectNode s = arguments(fixture, "set");
        ArrayNode sort = s.putArray("sort");
        sort.addObject().put("column", "due_date").put("direction", "asc");
        sort.addObject().put("column", "created_at").put("direction", "desc");
        setSort = invocation("apply_sort_change", s);

        ObjectNode v = Json.object();
        v.set("config", fixture.deepCopy());
        validateConfig = invocation("validate_table_config", v);

        ObjectNode envelope = Json.object().put("tool", "apply_column_change").put("toolCallId", "call_1")
                .put("conversationId", "c_1").put("userId", "u_1");
        envelope.set("arguments", a.deepCopy());
        handlerEvent = Json.MAPPER.writeValueAsBytes(envelope);

        // Every benchmark must measure a valid, successful run (not a fast error path).
        for (Map.Entry<Tool, ToolInvocation> c : Map.of(columns, addColumns, filters, addFilter, joins, addJoin,
                sorts, setSort, validate, validateConfig).entrySet()) {
            requireValid(c.getKey().execute(c.getValue()));
        }
        requireValid(columns.execute(removeColumn));
        requireValid(joins.execute(removeJoin));
        if (!ConfigValidator.validate(config).valid()) {
            throw new IllegalStateException("fixture is not valid");
        }
    }

    @Benchmark
    public ToolOutcome applyColumnChangeAddTwo() {
        return columns.execute(addColumns);
    }

    @Benchmark
    public ToolOutcome applyColumnChangeRemove() {
        return columns.execute(removeColumn);
    }

    @Benchmark
    public ToolOutcome applyFilterChangeAddWithHiddenColumn() {
        return filters.execute(addFilter);
    }

    @Benchmark
    public ToolOutcome applyJoinChangeAddWithColumn() {
        return joins.execute(addJoin);
    }

    @Benchmark
    public ToolOutcome applyJoinChangeRemoveWithItsColumns() {
        return joins.execute(removeJoin);
    }

    @Benchmark
    public ToolOutcome applySortChangeSet() {
        return sorts.execute(setSort);
    }

    @Benchmark
    public ToolOutcome validateTableConfigTool() {
        return validate.execute(validateConfig);
    }

    /** The domain's ConfigValidator alone, on the parsed model. */
    @Benchmark
    public ValidationReport validateConfig() {
        return ConfigValidator.validate(config);
    }

    /** What the Lambda pays per warm invocation: invocation bytes in, response bytes out (apply_column_change). */
    @Benchmark
    public byte[] handlerBytesToBytes() {
        return handler.answer(new ByteArrayInputStream(handlerEvent), "bench");
    }

    static ObjectNode fixture() throws IOException {
        try (InputStream in = OperationToolsBenchmark.class.getResourceAsStream("/fixtures/orders-config.json")) {
            if (in == null) {
                throw new IllegalStateException("fixtures/orders-config.json is not on the classpath");
            }
            return (ObjectNode) Json.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
    }

    private static ObjectNode arguments(ObjectNode fixture, String operation) {
        ObjectNode a = Json.object();
        a.set("config", fixture.deepCopy());
        a.put("operation", operation);
        return a;
    }

    private static ToolInvocation invocation(String tool, ObjectNode arguments) {
        return new ToolInvocation(tool, "call_1", "c_1", "u_1", arguments, Map.of());
    }

    private static void requireValid(ToolOutcome outcome) {
        if (!(outcome instanceof ToolOutcome.Ok ok) || !ok.output().path("valid").asBoolean(true)) {
            throw new IllegalStateException("benchmark input does not run cleanly: " + Json.write(ToolOutcomeJson.write(outcome)));
        }
    }
}
