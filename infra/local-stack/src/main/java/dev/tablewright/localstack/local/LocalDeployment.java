package dev.tablewright.localstack.local;

import dev.tablewright.catalogue.ToolCatalogue;
import dev.tablewright.fakes.dynamodb.DynamoDbLocalLauncher;
import dev.tablewright.fakes.dynamodb.TemplateTables;
import dev.tablewright.fakes.identity.DevIssuer;
import dev.tablewright.fakes.model.ModelScript;
import dev.tablewright.fakes.node.Node22;
import dev.tablewright.fakes.tools.InProcessToolInvoker;
import dev.tablewright.fakes.template.HttpApiRoutes;
import dev.tablewright.fakes.template.SamTemplate;
import dev.tablewright.invoke.LambdaToolInvoker;
import dev.tablewright.lambda.Env;
import dev.tablewright.localstack.web.PageConfig;
import dev.tablewright.localstack.web.ReferencePage;
import dev.tablewright.logging.StructuredLog;
import dev.tablewright.toolcontract.ToolDefinition;
import dev.tablewright.toolcontract.ToolRegistry;

import java.io.PrintStream;
import java.net.BindException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;

/**
 * The whole assistant on one machine, in one JVM: DynamoDB Local with the tables of template.yaml (or the engine the
 * shell's {@code DYNAMODB_ENDPOINT} names, the tables created there when missing), PostgreSQL with
 * the sample database ({@link LocalDatabase}), the model ({@link LocalModel}), every function of template.yaml
 * in-process behind one {@link LocalGateway} (HTTP API routes with the JWT authorizer, the streamed chat function
 * URL, the development issuer). Started by {@code infra/bin/local-stack}; Ctrl-C stops everything.
 */
public final class LocalDeployment implements AutoCloseable {

    private static final java.net.http.HttpClient API_CLIENT = java.net.http.HttpClient.newBuilder()
            .connectTimeout(java.time.Duration.ofSeconds(10)).build();

    /** What to start with. {@code environment} is where settings come from (the process environment, or a test's). */
    public record Settings(int port, Map<String, String> environment, PrintStream out, ModelScript script) {
        public Settings(int port, Map<String, String> environment, PrintStream out) {
            this(port, environment, out, null);
        }

        public static Settings fromProcess(int port) {
            return new Settings(port, System.getenv(), System.out);
        }

        /**
         * For tests: a free port, no banner, the scripted model playing {@code script} and what the test queues (with no
         * script: the offline demo model), and the process environment without OPENAI_*, BEDROCK_*, MODEL_PROVIDER,
         * DATA_SOURCES, DYNAMODB_ENDPOINT and AWS_* (a live model, the shell's data sources or AWS settings must not leak in), plus
         * {@code overrides} (where a test puts the AWS settings of the shell it plays).
         */
        public static Settings forTest(Map<String, String> overrides, ModelScript script) {
            Map<String, String> env = new java.util.HashMap<>(System.getenv());
            env.keySet().removeIf(k -> k.startsWith("OPENAI_") || k.startsWith("BEDROCK_") || k.equals("MODEL_PROVIDER") || k.equals("DATA_SOURCES")
                    || k.startsWith("AWS_") || k.equals(DYNAMODB_ENDPOINT));
            env.putAll(overrides);
            return new Settings(0, env, new PrintStream(java.io.OutputStream.nullOutputStream()), script);
        }
    }

    /** Variables of the template that only have a meaning in AWS: never taken from the shell (see {@link #boot}). */
    static final List<String> AWS_ONLY_VARIABLES = List.of("DATABASE_SECRET_ARN", "OPENAI_API_KEY_SECRET_ARN", "TOOL_APPROVAL_SECRET_ARN");

    private final Deque<AutoCloseable> resources = new ArrayDeque<>();
    private LocalGateway gateway;
    private LocalDatabase database;
    private LocalModel model;
    /** The shell's variable naming a DynamoDB engine to use instead of starting DynamoDB Local. */
    static final String DYNAMODB_ENDPOINT = "DYNAMODB_ENDPOINT";
    private java.net.URI dynamoEndpoint;
    private String dynamoEngine;
    private TemplateTables.Created tables;
    private Map<String, InProcessFunction> functions;
    private final Map<String, String> unavailable = new LinkedHashMap<>();
    private final CountDownLatch stopped = new CountDownLatch(1);

    private LocalDeployment() {
    }

    public static LocalDeployment start(Settings settings) throws Exception {
        LocalDeployment stack = new LocalDeployment();
        try {
            stack.boot(settings);
            return stack;
        } catch (Exception | Error e) {
            stack.close();
            throw e;
        }
    }

    private void boot(Settings settings) throws Exception {
        PrintStream out = settings.out();
        Path templateFile = SamTemplate.locate();
        SamTemplate template = SamTemplate.load(templateFile);

        try {
            gateway = own(new LocalGateway(settings.port()));
        } catch (BindException e) {
            throw new IllegalStateException("port " + settings.port() + " is in use: stop what runs there, or pick "
                    + "another port with --port N", e);
        }
        String givenEndpoint = settings.environment().get(DYNAMODB_ENDPOINT);
        if (givenEndpoint != null && !givenEndpoint.isBlank()) {
            // any DynamoDB engine the shell names (LocalStack, a DynamoDB Local or a fault proxy it runs): no engine of
            // our own, and the template's tables created there when missing
            dynamoEndpoint = java.net.URI.create(givenEndpoint.strip());
            dynamoEngine = "DYNAMODB_ENDPOINT";
            out.println("Using the DynamoDB engine at " + dynamoEndpoint + " (DYNAMODB_ENDPOINT), with the tables of template.yaml ...");
            tables = new TemplateTables(template).createAll(DynamoDbLocalLauncher.clientFor(dynamoEndpoint), "");
        } else {
            out.println("Starting DynamoDB Local (in-process) with the tables of template.yaml ...");
            DynamoDbLocalLauncher dynamo = own(DynamoDbLocalLauncher.start());
            dynamoEndpoint = dynamo.endpoint();
            dynamoEngine = "DynamoDB Local, in-process";
            tables = new TemplateTables(template).createAll(dynamo.client(), "");
        }

        out.println("Connecting PostgreSQL and loading the sample database ...");
        database = own(LocalDatabase.resolve(settings.environment().get("DATABASE_URL")));

        model = own(settings.script() != null ? LocalModel.scripted(settings.script(), settings.environment()) : LocalModel.resolve(settings.environment()));

        // The template's LogLevel, as Lambda would apply it (AWS_LAMBDA_LOG_LEVEL); LOG_LEVEL overrides it here.
        StructuredLog.threshold(settings.environment().getOrDefault("LOG_LEVEL",
                template.parameterDefaults().getOrDefault("LogLevel", "INFO")));

        // The functions read their configuration through Env: set it before any of them is created.
        Map<String, String> env = new LinkedHashMap<>();
        for (String id : template.resourcesOfType("AWS::Serverless::Function").keySet()) {
            env.putAll(template.localEnvironment(id).values());
            // A variable the template declares can be set from the shell (e.g. DATA_SOURCES, DATABASE_SCHEMAS).
            for (Object name : SamTemplate.map(SamTemplate.map(template.functionProperties(id).get("Environment")).get("Variables")).keySet()) {
                String fromShell = settings.environment().get(String.valueOf(name));
                if (fromShell != null && !fromShell.isBlank()) {
                    env.put(String.valueOf(name), fromShell);
                }
            }
        }
        // Only in AWS: a secret is read through the Secrets extension or Secrets Manager with the function's role. Here
        // the stack gives the database (DATABASE_URL) and the model itself, so a shell's ARN must not send its AWS
        // credentials anywhere; blank hides the process's own variable from Env too.
        AWS_ONLY_VARIABLES.forEach(name -> env.put(name, ""));
        // The shell's AWS settings, as the functions would see them in-process: those of settings.environment() (the
        // process's, or a test's shell) and no others. Nothing local signs with them but Bedrock (ShellAws); the
        // DynamoDB clients of DYNAMODB_ENDPOINT use the stack's own credentials and region (DynamoDbClients).
        ShellAws shell = new ShellAws(settings.environment());
        ShellAws.VARIABLES.forEach(name -> env.put(name, settings.environment().getOrDefault(name, "")));
        env.put("AWS_REGION", shell.region()); // as Lambda always sets it
        // tool approvals are signed with the shell's TOOL_APPROVAL_SECRET (deployed: the template's generated secret)
        String approvalSecret = settings.environment().get("TOOL_APPROVAL_SECRET");
        if (approvalSecret != null && !approvalSecret.isBlank()) {
            env.put("TOOL_APPROVAL_SECRET", approvalSecret);
        }
        env.putAll(tables.environment());
        env.put(DYNAMODB_ENDPOINT, dynamoEndpoint.toString());
        env.put("DATABASE_URL", database.url().jdbcUrlWithCredentials()); // a postgres://user:pass@ URL keeps its user
        env.putAll(gateway.authEnvironment());
        if (model.bedrockSettings() != null) {
            env.put("MODEL_PROVIDER", "bedrock");
            env.put("BEDROCK_ENDPOINT", model.bedrockSettings().endpoint().toString());
            env.put("BEDROCK_MODEL_ID", model.bedrockSettings().modelId());
        } else {
            env.put("OPENAI_BASE_URL", model.settings().baseUrl());
            env.put("OPENAI_MODEL", model.settings().model());
        }
        Env.override(env);
        resources.push(() -> Env.removeOverrides(env.keySet()));

        functions = new LinkedHashMap<>();
        Set<String> urlFunctions = HttpApiRoutes.functionUrls(template).keySet();
        for (String id : template.resourcesOfType("AWS::Serverless::Function").keySet()) {
            if (!urlFunctions.contains(id)) {
                functions.put(id, InProcessFunction.fromTemplate(template, id));
            }
        }
        for (String id : urlFunctions) {
            functions.put(id, InProcessFunction.ofInstance(id, door(template, id)));
        }
        for (InProcessFunction f : List.copyOf(functions.values())) {
            try {
                f.instance(); // the init phase, now rather than on the first request
            } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
                // As in AWS, a function that fails its init answers its routes with an error; the rest still run.
                Throwable cause = e.getCause() != null ? e.getCause() : e;
                unavailable.put(f.logicalId(), cause.getClass().getSimpleName() + ": " + cause.getMessage());
                functions.remove(f.logicalId());
            }
        }
        // The reference page on the same origin as the API and the chat (built by main, or by whoever runs this)
        gateway.page(ReferencePage.besideTemplate(templateFile).files(),
                PageConfig.local(new PageConfig.Model(model.kind().wireName(), model.label())));
        gateway.corsOrigins(corsOrigins(settings.environment(), template)).start(template, functions);
        out.println(banner());
    }

    /**
     * The door a function URL of the template serves, found by its handler ({@link LocalDoors}), with its parts local:
     * its tools in-process through the functions its TOOL_FUNCTION_* variables name, the model of {@link LocalModel}.
     */
    private Object door(SamTemplate template, String id) {
        String handler = String.valueOf(template.functionProperties(id).get("Handler"));
        String handlerClass = handler.contains("::") ? handler.substring(0, handler.indexOf("::")) : handler;
        LocalDoors.Door door = LocalDoors.forHandler(handlerClass).orElseThrow(() -> new IllegalStateException(
                "the function URL of " + id + " has a handler no local door knows: " + handlerClass));
        return door.build().apply(new LocalDoors.Parts(Env.all(), toolInvoker(template, id), model.chatModel(), gateway.url()));
    }

    /** The tools of a function's TOOL_FUNCTION_* variables, each run in-process in its own function of the template. */
    private InProcessToolInvoker toolInvoker(SamTemplate template, String id) {
        Map<String, InProcessToolInvoker.Runner> byTool = new LinkedHashMap<>();
        // TOOL_FUNCTION_<TOOL>: !Ref <Tool>Function(.Alias): the function each tool runs in.
        Map<String, String> refs = new LinkedHashMap<>();
        SamTemplate.map(SamTemplate.map(template.functionProperties(id).get("Environment")).get("Variables")).forEach((name, value) -> {
            if (value instanceof SamTemplate.Intrinsic(String fn, Object arg) && fn.equals("Ref")) {
                String target = String.valueOf(arg);
                refs.put(name, target.contains(".") ? target.substring(0, target.indexOf('.')) : target);
            }
        });
        Map<String, String> declared = LambdaToolInvoker.functionsFromEnvironment(refs);
        if (declared.isEmpty()) {
            // No TOOL_FUNCTION_* variables yet: every tool function the template declares.
            for (ToolDefinition d : ToolCatalogue.registry().functionTools()) {
                declared.put(d.name(), d.functionLogicalId());
            }
        }
        declared.forEach((tool, functionId) -> {
            if (template.resourcesOfType("AWS::Serverless::Function").containsKey(functionId)) {
                byTool.put(tool, InProcessFunction.fromTemplate(template, functionId).asToolRunner());
            }
        });
        return new InProcessToolInvoker(byTool);
    }

    /** The user-input lifecycle on the local UserInputTable, as the user-input functions use it. */
    private <T extends AutoCloseable> T own(T resource) {
        resources.push(resource);
        return resource;
    }

    public String url() {
        return gateway.url();
    }

    public String chatUrl() {
        return gateway.chatUrl();
    }

    /** Calls this stack's HTTP API as a client does: a JSON body (or none), the bearer token when there is one. */
    public java.net.http.HttpResponse<String> call(String method, String path, String token, String body)
            throws java.io.IOException, InterruptedException {
        java.net.http.HttpRequest.Builder request = java.net.http.HttpRequest.newBuilder(java.net.URI.create(url() + path))
                .timeout(java.time.Duration.ofSeconds(60)).header("content-type", "application/json")
                .method(method, body == null ? java.net.http.HttpRequest.BodyPublishers.noBody()
                        : java.net.http.HttpRequest.BodyPublishers.ofString(body));
        if (token != null) {
            request.header("authorization", "Bearer " + token);
        }
        return API_CLIENT.send(request.build(), java.net.http.HttpResponse.BodyHandlers.ofString());
    }

    public String mcpUrl() {
        return gateway.mcpUrl();
    }

    public String aguiUrl() {
        return gateway.aguiUrl();
    }

    public DevIssuer issuer() {
        return gateway.issuer();
    }

    public LocalGateway gateway() {
        return gateway;
    }

    public LocalModel model() {
        return model;
    }

    public LocalDatabase database() {
        return database;
    }

    public Map<String, InProcessFunction> functions() {
        return functions;
    }

    /** The start-up banner: URLs, identity, a token, and one curl line that streams a chat turn. */
    public String banner() {
        String token = issuer().mint(DevIssuer.DEV_USER);
        StringBuilder b = new StringBuilder();
        b.append("\n==================== Tablewright local stack ====================\n");
        b.append("page              ").append(gateway.servesPage() ? url() + "/   (the reference page, signed in as "
                + DevIssuer.DEV_USER + ")" : "not built: it needs Node.js " + Node22.MAJOR + "+ and npm (with an older Node, "
                + "npm's Node " + Node22.MAJOR + " is fetched at the next start)").append("\n");
        b.append("HTTP API          ").append(url()).append("   (").append(gateway.routes().size()).append(" routes from template.yaml)\n");
        b.append("chat (streaming)  ").append(chatUrl()).append("\n");
        b.append("MCP server        ").append(mcpUrl()).append("   (Streamable HTTP; docs/mcp.md)\n");
        b.append("AG-UI             ").append(aguiUrl()).append("   (RunAgentInput over SSE; docs/ag-ui.md)\n");
        b.append("DynamoDB          ").append(dynamoEndpoint).append("   (").append(dynamoEngine).append(")   tables ")
                .append(tables.tableNames().keySet()).append("\n");
        b.append("PostgreSQL        ").append(database.origin()).append("\n");
        b.append("model             ").append(model.describe()).append("\n");
        unavailable.forEach((id, why) -> b.append("NOT RUNNING       ").append(id).append(": ").append(why).append("\n"));
        b.append("identity          issuer ").append(issuer().issuer()).append(", audience ").append(issuer().audience())
                .append(", user ").append(DevIssuer.DEV_USER).append("\n");
        b.append("dev token         (valid ").append(DevIssuer.DEFAULT_TTL.toHours()).append(" h, this run only)\n");
        b.append(token).append("\n\n");
        b.append("Stream a chat turn:\n");
        b.append("curl -N ").append(chatUrl()).append(" \\\n")
                .append("  -H 'Authorization: Bearer ").append(token).append("' \\\n")
                .append("  -H 'Content-Type: application/json' \\\n")
                .append("  -d '").append(exampleChatBody()).append("'\n\n");
        b.append("Chat from a terminal:  infra/bin/chat            (Ctrl-C here stops everything)\n");
        b.append("=================================================================\n");
        return b.toString();
    }

    /**
     * The origins a browser may call from: {@code CORS_ALLOWED_ORIGINS} (comma-separated), else the template's
     * {@code CorsAllowedOrigins} default, as a deployed stack would have them.
     */
    static Set<String> corsOrigins(Map<String, String> environment, SamTemplate template) {
        String configured = environment.get("CORS_ALLOWED_ORIGINS");
        String origins = configured != null && !configured.isBlank() ? configured
                : template.parameterDefaults().getOrDefault("CorsAllowedOrigins", "*");
        Set<String> out = new java.util.LinkedHashSet<>();
        for (String origin : origins.split(",")) {
            if (!origin.isBlank()) {
                out.add(origin.strip());
            }
        }
        return out.isEmpty() ? Set.of("*") : out;
    }

    /** The body of the banner's curl line: a useChat request on the tables page. */
    public static String exampleChatBody() {
        return "{\"id\":\"conv-demo-1\",\"trigger\":\"submit-message\",\"messages\":[{\"id\":\"m1\",\"role\":\"user\","
                + "\"parts\":[{\"type\":\"text\",\"text\":\"Show stock levels with their warehouse name\"}]}],"
                + "\"context\":{\"page\":\"tables\"}}";
    }

    /** Blocks until {@link #close()} (Ctrl-C runs it through the shutdown hook). */
    public void awaitStop() throws InterruptedException {
        stopped.await();
    }

    @Override
    public synchronized void close() {
        while (!resources.isEmpty()) {
            try {
                resources.pop().close();
            } catch (Exception e) {
                // keep stopping the rest
            }
        }
        stopped.countDown();
    }

    public static void main(String[] args) throws Exception {
        int port = LocalGateway.DEFAULT_PORT;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--port" -> port = Integer.parseInt(args[++i]);
                case "-h", "--help" -> {
                    System.out.println("""
                            usage: infra/bin/local-stack [--port N]
                            Runs every function of template.yaml behind http://localhost:N (default 3000).
                            Environment: DATABASE_URL (else 127.0.0.1:5432, else an embedded PostgreSQL),
                            OPENAI_API_KEY / OPENAI_BASE_URL / OPENAI_MODEL (else the offline demo model).""");
                    return;
                }
                default -> {
                    System.err.println("unknown argument " + args[i] + " (try --help)");
                    System.exit(2);
                }
            }
        }
        try {
            ReferencePage.besideTemplate(SamTemplate.locate()).buildIfNeeded(System.out);
        } catch (RuntimeException e) {
            System.out.println("The reference page is not built: " + e.getMessage());
        }
        LocalDeployment stack;
        try {
            stack = start(Settings.fromProcess(port));
        } catch (LocalDatabase.Unavailable | IllegalStateException e) {
            System.err.println("\nThe local stack could not start:\n" + e.getMessage());
            System.exit(1);
            return;
        } catch (Exception | Error e) {
            System.err.println("\nThe local stack could not start:");
            e.printStackTrace();
            System.exit(1); // nothing left running: start() has closed what it opened
            return;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            System.out.println("\nStopping the local stack ...");
            stack.close();
        }, "local-stack-stop"));
        stack.awaitStop();
    }
}
