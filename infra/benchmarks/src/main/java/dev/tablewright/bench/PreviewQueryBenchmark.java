package dev.tablewright.bench;

import dev.tablewright.codec.ConfigJson;
import dev.tablewright.config.TableConfig;
import dev.tablewright.fakes.sampledb.SampleDatabase;
import dev.tablewright.fakes.sampledb.SampleDatabaseConfigs;
import dev.tablewright.postgres.DatabaseUrl;
import dev.tablewright.postgres.PostgresDatabases;
import dev.tablewright.sql.CompiledQuery;
import dev.tablewright.sql.Database;
import dev.tablewright.sql.QueryFailure;
import dev.tablewright.sql.QueryPlan;
import dev.tablewright.sql.SampleRunner;
import dev.tablewright.sql.SqlCompiler;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Warm latency of preview_table_config's database half on the sample database (DATABASE_URL, default the local
 * {@code test}): compiling a 3-join, 3-filter, 2-sort config ({@link SampleDatabaseConfigs#THREE_JOINS}, the one
 * PreviewTableConfigTest checks) against the cached catalogue; PostgreSQL planning it
 * (EXPLAIN in a read-only transaction); and the whole compile + plan + 10-row sample. One connection, kept warm,
 * as in a warm Lambda instance.
 *
 * <pre>infra/bin/jmh PreviewQueryBenchmark -f 1 -wi 3 -i 5 -w 2s -r 2s</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class PreviewQueryBenchmark {

    private PostgresDatabases databases;
    private Database database;
    private TableConfig config;
    private CompiledQuery query;

    @Setup(Level.Trial)
    public void setUp() {
        DatabaseUrl url = SampleDatabase.ensureLoaded();
        databases = new PostgresDatabases(Map.of("default", url::connect), PostgresDatabases.DEFAULT_SCHEMAS,
                Duration.ofSeconds(5), Duration.ofMinutes(10));
        database = databases.find("default").orElseThrow();
        config = ConfigJson.read(SampleDatabaseConfigs.THREE_JOINS).config();
        SqlCompiler.Compilation compiled = SqlCompiler.compile(config, database.catalog(), 10);
        if (!compiled.ok()) {
            throw new IllegalStateException("benchmark config does not compile: " + compiled.errors());
        }
        query = compiled.query();
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        databases.close();
    }

    @Benchmark
    public CompiledQuery compile() {
        return SqlCompiler.compile(config, database.catalog(), 10).query();
    }

    @Benchmark
    public QueryPlan plan() throws QueryFailure {
        return database.runner().plan(query);
    }

    @Benchmark
    public SampleRunner.Result compilePlanAndSample() throws QueryFailure {
        CompiledQuery q = SqlCompiler.compile(config, database.catalog(), 10).query();
        return database.runner().planAndSample(q);
    }
}
