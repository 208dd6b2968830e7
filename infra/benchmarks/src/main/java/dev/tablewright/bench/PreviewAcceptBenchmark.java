package dev.tablewright.bench;

import dev.tablewright.lambda.HttpResponse;
import dev.tablewright.codec.ConfigJson;
import dev.tablewright.config.TableConfig;
import dev.tablewright.functions.configs.AcceptPreviewFunction;
import dev.tablewright.functions.configs.ConfigServices;
import dev.tablewright.functions.configs.GetConfigFunction;
import dev.tablewright.fakes.dynamodb.DynamoDbLocalLauncher;
import dev.tablewright.fakes.dynamodb.TemplateTables;
import dev.tablewright.lambda.HttpApiEventBuilder;
import dev.tablewright.preview.PendingPreview;
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
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

import java.time.Clock;
import java.time.Instant;
import java.util.concurrent.TimeUnit;

/**
 * Warm latency of the preview accept route against DynamoDB Local (in this JVM, over loopback HTTP): the whole
 * handler, from the API Gateway event to the response object. Each accept reads the preview, reads the config's
 * current item and writes one transaction (current config, new version item, preview status). A GET of the
 * config is measured beside it as the one-read baseline.
 *
 * <pre>infra/bin/jmh PreviewAcceptBenchmark</pre>
 *
 * DynamoDB Local is not DynamoDB: its figures show the handler's own cost plus a local engine's, not AWS latency.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class PreviewAcceptBenchmark {

    private static final String OWNER = "bench-user";

    private DynamoDbLocalLauncher dynamo;
    private ConfigServices services;
    private AcceptPreviewFunction accept;
    private GetConfigFunction get;
    private String configId;
    private long version;
    private TableConfig config;

    @Setup(Level.Trial)
    public void start() throws Exception {
        dynamo = DynamoDbLocalLauncher.start();
        DynamoDbClient client = dynamo.client();
        TemplateTables.Created tables = TemplateTables.fromTemplate().createAll(client, "bench-");
        services = ConfigServices.of(client, tables.tableName("ConfigsTable"), tables.tableName("PreviewsTable"), Clock.systemUTC());
        accept = new AcceptPreviewFunction(services);
        get = new GetConfigFunction(services);
        config = ConfigJson.readWritten("""
                {"name": "Active orders", "description": "Orders still open",
                 "data_source": [{"schema": "sales", "source": "orders",
                   "select": {"columns": [{"name": "id"}, {"name": "created_at"}, {"name": "status"}]},
                   "filters": [{"column": "status", "operator": "eq", "value": "open"}],
                   "sort": [{"column": "created_at", "direction": "desc"}]}],
                 "visual_settings": {"page_size": 25, "columns": {
                   "id": {"header": "ID", "type": "number", "order": 1},
                   "created_at": {"header": "Created", "type": "datetime", "format": "yyyy-MM-dd HH:mm", "order": 2},
                   "status": {"type": "string", "hidden": true}}}}""");
        var created = services.configs().create(OWNER, config, Instant.now());
        configId = created.configId();
        version = created.version();
    }

    /** A fresh pending preview on the config's current version before every accept (its writing is not measured). */
    @State(Scope.Thread)
    public static class NextPreview {
        PendingPreview pending;

        @Setup(Level.Invocation)
        public void save(PreviewAcceptBenchmark bench) {
            pending = PendingPreview.create(OWNER, "c_bench", bench.configId, bench.version, "next step", bench.config,
                    null, Instant.now(), PendingPreview.DEFAULT_TTL);
            bench.services.previews().save(pending);
        }
    }

    @Benchmark
    public HttpResponse acceptPreview(NextPreview next) {
        HttpResponse response = accept.respond(HttpApiEventBuilder
                .route("POST /previews/{previewId}/accept", "/previews/" + next.pending.previewId() + "/accept")
                .caller(OWNER).build(), null);
        if (response.status() != 200) {
            throw new IllegalStateException("accept answered " + response.status() + ": " + response.body());
        }
        version++;
        return response;
    }

    @Benchmark
    public HttpResponse getConfig() {
        return get.respond(HttpApiEventBuilder.route("GET /configs/{configId}", "/configs/" + configId)
                .caller(OWNER).build(), null);
    }

    @TearDown(Level.Trial)
    public void stop() {
        dynamo.close();
    }
}
