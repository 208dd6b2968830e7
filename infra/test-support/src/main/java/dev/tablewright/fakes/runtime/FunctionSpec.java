package dev.tablewright.fakes.runtime;

import dev.tablewright.fakes.template.SamTemplate;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the harness needs to start one function the way Lambda does, all read from template.yaml (handler,
 * runtime, memory, timeout, environment) and the root Makefile (which Maven module builds it).
 *
 * @param artifact the module's shaded jar ({@code functions/<module>/target/*-lambda.jar}), or a directory that is
 *                 already a task root; it may not exist yet (then {@link #artifactExists()} is false: run
 *                 {@code mvn package} first)
 */
public record FunctionSpec(String logicalId, String handler, String runtime, int memoryMb, int timeoutSeconds,
                           Map<String, String> environment, String module, Path artifact) {

    private static final Pattern MAKE_LINE = Pattern.compile("^build-([A-Za-z0-9]+):\\s*MODULE=(\\S+)\\s*$");

    public static FunctionSpec fromTemplate(String logicalId) throws IOException {
        Path templateFile = SamTemplate.locate();
        Path root = templateFile.getParent();
        SamTemplate template = SamTemplate.load(templateFile);
        Map<String, Object> properties = template.functionProperties(logicalId);
        // resolved as on one machine (parameter defaults, logical ids); values that exist only in AWS are left out
        Map<String, String> environment = template.localEnvironment(logicalId).values();
        String module = moduleOf(root.resolve("Makefile"), logicalId);
        return new FunctionSpec(logicalId,
                template.handler(logicalId),
                String.valueOf(properties.getOrDefault("Runtime", "java21")),
                intOf(properties.get("MemorySize"), 128),
                intOf(properties.get("Timeout"), 3),
                Map.copyOf(environment), module, shadedJar(root.resolve("functions").resolve(module).resolve("target")));
    }

    /** The same function with another handler (a test-only handler shipped with {@code extraJars}, say). */
    public FunctionSpec withHandler(String otherHandler) {
        return new FunctionSpec(logicalId, otherHandler, runtime, memoryMb, timeoutSeconds, environment, module, artifact);
    }

    /** The Java version of the runtime ({@code java25} → 25); 21 when the name does not say. */
    public int runtimeVersion() {
        String digits = runtime == null ? "" : runtime.replaceAll("\\D", "");
        return digits.isEmpty() ? 21 : Integer.parseInt(digits);
    }

    public boolean artifactExists() {
        return Files.exists(artifact);
    }

    private static int intOf(Object value, int fallback) {
        if (value instanceof Number n) {
            return n.intValue();
        }
        try {
            return value == null ? fallback : Integer.parseInt(String.valueOf(value).trim());
        } catch (NumberFormatException e) {
            return fallback;
        }
    }

    static String moduleOf(Path makefile, String logicalId) throws IOException {
        for (String line : Files.readAllLines(makefile)) {
            Matcher m = MAKE_LINE.matcher(line.trim());
            if (m.matches() && m.group(1).equals(logicalId)) {
                return m.group(2);
            }
        }
        throw new IllegalArgumentException("no line 'build-" + logicalId + ": MODULE=...' in " + makefile);
    }

    private static Path shadedJar(Path target) throws IOException {
        if (Files.isDirectory(target)) {
            try (DirectoryStream<Path> jars = Files.newDirectoryStream(target, "*-lambda.jar")) {
                for (Path jar : jars) {
                    return jar;
                }
            }
        }
        return target.resolve("(not built: run mvn package)-lambda.jar");
    }
}
