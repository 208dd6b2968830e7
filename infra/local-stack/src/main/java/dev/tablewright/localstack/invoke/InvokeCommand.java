package dev.tablewright.localstack.invoke;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.localstack.local.LocalLambdaContext;
import dev.tablewright.fakes.template.SamTemplate;
import dev.tablewright.json.Json;
import dev.tablewright.lambda.Env;
import dev.tablewright.logging.StructuredLog;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The local {@code sam local invoke}: {@code invoke <FunctionLogicalId> [--event file.json | -]}. Reads the
 * function's handler and environment from template.yaml (Globals applied), runs the handler in this JVM and
 * prints its response on stdout; logs go to stderr, so the output can be piped to {@code jq}.
 *
 * <p>Environment: the template's variables (resolved locally, see {@link SamTemplate#localEnvironment}) reach
 * the handler through {@link Env}; a variable already set in the shell wins over the template, and
 * {@code --env NAME=VALUE} wins over both.
 */
public final class InvokeCommand {

    static final String USAGE = """
            usage: invoke <FunctionLogicalId> [--event <file.json> | --event -] [--env NAME=VALUE]... [--template <path>] [--compact]
              Runs one function of template.yaml locally with the event (a file, or stdin with '-' or when piped;
              {} when there is none) and prints its response.""";

    /** What one invocation produced: the response bytes, or the error Lambda would report. */
    public record Result(String logicalId, String handler, byte[] response, Throwable failure, long initMillis, long invokeMillis) {
        public boolean succeeded() {
            return failure == null;
        }
    }

    record Options(String logicalId, String eventFile, boolean noEvent, Map<String, String> env, Path template, boolean compact) {
    }

    public static void main(String[] args) {
        PrintStream stdout = System.out;
        // Handlers log to stdout (CloudWatch reads it); here stdout carries only the response.
        System.setOut(System.err);
        StructuredLog.redirect(System.err);
        int status;
        try {
            status = run(args, System.in, stdout, System.err);
        } catch (RuntimeException e) {
            System.err.println("invoke: " + e.getMessage());
            status = 2;
        }
        stdout.flush();
        System.exit(status);
    }

    static int run(String[] args, InputStream stdin, PrintStream out, PrintStream err) {
        Options options;
        try {
            options = parse(args);
            if (options == null) {
                out.println(USAGE);
                return 0;
            }
        } catch (IllegalArgumentException e) {
            err.println("invoke: " + e.getMessage());
            err.println(USAGE);
            return 2;
        }
        byte[] event;
        SamTemplate template;
        try {
            event = options.noEvent() ? "{}".getBytes(StandardCharsets.UTF_8)
                    : options.eventFile() == null || options.eventFile().equals("-") ? stdin.readAllBytes()
                    : Files.readAllBytes(Path.of(options.eventFile()));
            if (new String(event, StandardCharsets.UTF_8).isBlank()) {
                event = "{}".getBytes(StandardCharsets.UTF_8);
            }
            template = SamTemplate.load(options.template() == null ? SamTemplate.locate() : options.template());
        } catch (IOException e) {
            err.println("invoke: cannot read " + e.getMessage());
            return 2;
        }
        if (!template.resourcesOfType("AWS::Serverless::Function").containsKey(options.logicalId())) {
            err.println("invoke: no function " + options.logicalId() + " in template.yaml; functions: "
                    + String.join(", ", template.resourcesOfType("AWS::Serverless::Function").keySet()));
            return 2;
        }
        SamTemplate.LocalEnvironment environment = template.localEnvironment(options.logicalId());
        Map<String, String> applied = new LinkedHashMap<>();
        environment.values().forEach((name, value) -> {
            if (System.getenv(name) == null) {
                applied.put(name, value);
            }
        });
        applied.putAll(options.env());
        if (!environment.unresolved().isEmpty()) {
            err.println("invoke: left unset (they only have a value in AWS; set them in the shell or with --env): "
                    + String.join(", ", environment.unresolved()));
        }
        Env.override(applied);

        Result result = invoke(template, options.logicalId(), event, err);
        if (!result.succeeded()) {
            Throwable cause = result.failure();
            err.println("invoke: " + result.handler() + " failed: " + cause);
            out.println(Json.write(Map.of("errorType", cause.getClass().getName(),
                    "errorMessage", String.valueOf(cause.getMessage()))));
            return 1;
        }
        out.println(render(result.response(), options.compact()));
        err.printf("invoke: %s answered %d bytes in %d ms (init %d ms)%n", options.logicalId(), result.response().length,
                result.invokeMillis(), result.initMillis());
        return 0;
    }

    /** Loads the handler class of {@code logicalId}, creates it (the init phase) and invokes it once with {@code event}. */
    public static Result invoke(SamTemplate template, String logicalId, byte[] event, PrintStream log) {
        String handler = template.handler(logicalId);
        Map<String, Object> properties = template.functionProperties(logicalId);
        int memory = properties.get("MemorySize") instanceof Number n ? n.intValue() : 128;
        int timeout = properties.get("Timeout") instanceof Number n ? n.intValue() : 3;
        String className = handler.contains("::") ? handler.substring(0, handler.indexOf("::")) : handler;
        String methodName = handler.contains("::") ? handler.substring(handler.indexOf("::") + 2) : "handleRequest";
        long started = System.nanoTime();
        Object instance;
        try {
            instance = Class.forName(className).getConstructor().newInstance();
        } catch (InvocationTargetException e) {
            return new Result(logicalId, handler, null, e.getCause(), millisSince(started), 0);
        } catch (ReflectiveOperationException | LinkageError e) {
            return new Result(logicalId, handler, null, new IllegalStateException("cannot create handler " + className
                    + " (is its function module built and on infra's classpath?): " + e), millisSince(started), 0);
        }
        long init = millisSince(started);
        Context context = LocalLambdaContext.fresh(logicalId, memory, timeout, log);
        long invoked = System.nanoTime();
        try {
            byte[] response = call(instance, methodName, event, context);
            return new Result(logicalId, handler, response, null, init, millisSince(invoked));
        } catch (InvocationTargetException e) {
            return new Result(logicalId, handler, null, e.getCause(), init, millisSince(invoked));
        } catch (Exception e) {
            return new Result(logicalId, handler, null, e, init, millisSince(invoked));
        }
    }

    /** A {@code RequestStreamHandler} gets the bytes; a {@code RequestHandler} gets the event bound to its input type. */
    private static byte[] call(Object instance, String methodName, byte[] event, Context context) throws Exception {
        if (instance instanceof RequestStreamHandler stream && methodName.equals("handleRequest")) {
            ByteArrayOutputStream response = new ByteArrayOutputStream();
            stream.handleRequest(new ByteArrayInputStream(event), response, context);
            return response.toByteArray();
        }
        for (Method method : instance.getClass().getMethods()) {
            Class<?>[] types = method.getParameterTypes();
            if (method.getName().equals(methodName) && !method.isBridge() && types.length == 2 && types[1] == Context.class) {
                Object input = types[0] == String.class ? new String(event, StandardCharsets.UTF_8)
                        : Json.MAPPER.readValue(event, Json.MAPPER.constructType(method.getGenericParameterTypes()[0]));
                Object output = method.invoke(instance, input, context);
                return output == null ? "null".getBytes(StandardCharsets.UTF_8) : Json.MAPPER.writeValueAsBytes(output);
            }
        }
        throw new IllegalStateException(instance.getClass().getName() + " has no method " + methodName
                + "(input, Context) and is not a RequestStreamHandler (a streaming function runs through the local gateway instead)");
    }

    private static final DefaultPrettyPrinter PRETTY = new DefaultPrettyPrinter()
            .withSeparators(Separators.createDefaultInstance().withObjectFieldValueSpacing(Separators.Spacing.AFTER))
            .withObjectIndenter(new DefaultIndenter("  ", "\n"))
            .withArrayIndenter(new DefaultIndenter("  ", "\n"));

    static String render(byte[] response, boolean compact) {
        String text = new String(response, StandardCharsets.UTF_8);
        if (compact) {
            return text;
        }
        try {
            JsonNode node = Json.MAPPER.readTree(response);
            return node == null ? text : Json.MAPPER.writer(PRETTY).writeValueAsString(node);
        } catch (IOException e) {
            return text;
        }
    }

    static Options parse(String[] args) {
        String logicalId = null;
        String eventFile = null;
        boolean noEvent = false;
        boolean compact = false;
        Path template = null;
        Map<String, String> env = new LinkedHashMap<>();
        List<String> rest = new ArrayList<>(List.of(args));
        for (int i = 0; i < rest.size(); i++) {
            String arg = rest.get(i);
            switch (arg) {
                case "--event", "-e" -> eventFile = value(rest, ++i, arg);
                case "--no-event" -> noEvent = true;
                case "--compact" -> compact = true;
                case "--template", "-t" -> template = Path.of(value(rest, ++i, arg));
                case "--env" -> {
                    String pair = value(rest, ++i, arg);
                    int eq = pair.indexOf('=');
                    if (eq <= 0) {
                        throw new IllegalArgumentException("--env takes NAME=VALUE, not '" + pair + "'");
                    }
                    env.put(pair.substring(0, eq), pair.substring(eq + 1));
                }
                case "-h", "--help" -> {
                    return null;
                }
                default -> {
                    if (arg.startsWith("-") && !arg.equals("-")) {
                        throw new IllegalArgumentException("unknown option " + arg);
                    }
                    if (logicalId != null) {
                        throw new IllegalArgumentException("one function at a time (got " + logicalId + " and " + arg + ")");
                    }
                    logicalId = arg;
                }
            }
        }
        if (logicalId == null) {
            throw new IllegalArgumentException("which function? name its logical id from template.yaml");
        }
        if (noEvent && eventFile != null) {
            noEvent = false;
        }
        return new Options(logicalId, eventFile, noEvent, env, template, compact);
    }

    private static String value(List<String> args, int i, String option) {
        if (i >= args.size()) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args.get(i);
    }

    private static long millisSince(long nanos) {
        return (System.nanoTime() - nanos) / 1_000_000;
    }
}
