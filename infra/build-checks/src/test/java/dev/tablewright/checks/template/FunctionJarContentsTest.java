package dev.tablewright.checks.template;

import dev.tablewright.fakes.template.SamTemplate;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Each function module's deployed jar (what the Makefile gives SAM) holds only what its functions use: no
 * development-only code ({@link DevelopmentOnlyCode}), and no function-layer class that none of its entry points
 * reaches. The entry points are the handlers template.yaml names for the module's functions, and the classes its
 * start-up resources name (the streaming wrapper script, {@code META-INF/services}).
 */
class FunctionJarContentsTest {

    private static final Path ROOT = SamTemplate.locate().getParent();
    private static final Pattern PROJECT_CLASS = Pattern.compile("dev\\.tablewright(\\.[a-zA-Z_][\\w]*)+");

    private static final Map<String, FunctionJar> JARS = new TreeMap<>();
    private static final Map<String, Set<String>> HANDLERS = new TreeMap<>();

    @BeforeAll
    static void readJars() throws IOException {
        SamTemplate template = SamTemplate.load(ROOT.resolve("template.yaml"));
        for (Map.Entry<String, String> line : TemplateCheck.buildLines(Files.readString(ROOT.resolve("Makefile")))) {
            String handler = template.handler(line.getKey());
            HANDLERS.computeIfAbsent(line.getValue(), m -> new TreeSet<>()).add(handler.contains("::")
                    ? handler.substring(0, handler.indexOf("::")) : handler);
        }
        for (String module : HANDLERS.keySet()) {
            Path target = ROOT.resolve("functions").resolve(module).resolve("target");
            try (DirectoryStream<Path> found = Files.newDirectoryStream(target, "*-lambda.jar")) {
                for (Path jar : found) {
                    JARS.put(module, FunctionJar.read(jar));
                }
            }
            assertTrue(JARS.containsKey(module), "functions/" + module + " has a *-lambda.jar (run the build: mvn -B package)");
        }
    }

    @Test
    void noFunctionJarHoldsDevelopmentOnlyCode() {
        List<String> problems = new ArrayList<>();
        JARS.forEach((module, jar) -> jar.entries().stream().filter(DevelopmentOnlyCode::matches)
                .forEach(entry -> problems.add(module + ": " + entry)));
        assertEquals(List.of(), problems, "development-only code in a function jar (see DevelopmentOnlyCode)");
    }

    /**
     * Every function-layer class in a jar is reached from one of its entry points: a jar carries no other module's
     * handlers and no dead wiring. (The shared modules' classes are not held to this: a module ships whole, and
     * a function uses part of it.)
     */
    @Test
    void everyFunctionClassInAJarIsReachedFromItsEntryPoints() throws IOException {
        List<String> problems = new ArrayList<>();
        for (Map.Entry<String, FunctionJar> e : JARS.entrySet()) {
            FunctionJar jar = e.getValue();
            Set<String> roots = new LinkedHashSet<>(HANDLERS.get(e.getKey()));
            roots.addAll(classesNamedByStartUpResources(jar));
            Set<String> reached = jar.reachableFrom(roots);
            jar.projectClasses().stream().filter(name -> name.startsWith("dev/tablewright/functions/"))
                    .filter(name -> !reached.contains(name)).sorted()
                    .forEach(name -> problems.add(e.getKey() + ": " + name.replace('/', '.')));
        }
        assertEquals(List.of(), problems, "function classes a jar ships but none of its functions reaches");
    }

    /**
     * The tools' implementations ship only where they run: in the tool functions. The chat and MCP functions invoke
     * them through Lambda and read their definitions from the tool catalogue.
     */
    @Test
    void onlyTheToolFunctionsShipTheToolsImplementations() {
        Set<String> withTools = new TreeSet<>();
        JARS.forEach((module, jar) -> {
            if (jar.projectClasses().stream().anyMatch(name -> name.startsWith("dev/tablewright/tools/"))) {
                withTools.add(module);
            }
        });
        for (String door : List.of("chat-turn", "mcp")) {
            assertTrue(JARS.get(door).projectClasses().stream().anyMatch(name -> name.startsWith("dev/tablewright/catalogue/")),
                    door + " holds the tool catalogue");
        }
        assertEquals(Set.of("configs", "tools"), withTools, "function jars with the tools' implementations");
    }

    /**
     * The MCP function runs no model: it wires its tools with the tool assembly alone, so its jar holds no model client
     * (openai-java, the OpenAI and Bedrock adapters), no tracing (OpenTelemetry) and not the agent's assembly. The
     * chat's jar, which runs the model, holds them: the prefixes name what is there.
     */
    @Test
    void theMcpFunctionShipsNoModelClientAndNoTracing() {
        List<String> modelOnly = List.of("com/openai/", "dev/tablewright/openai/", "dev/tablewright/bedrock/",
                "io/opentelemetry/", "dev/tablewright/telemetry/", "dev/tablewright/agentassembly/AgentAssembly");
        List<String> inMcp = modelOnly.stream()
                .filter(prefix -> JARS.get("mcp").entries().stream().anyMatch(entry -> entry.startsWith(prefix))).toList();
        assertEquals(List.of(), inMcp, "the MCP function's jar holds what only a model needs");
        assertTrue(JARS.get("mcp").projectClasses().contains("dev/tablewright/toolassembly/ToolAssembly"),
                "the MCP function wires its tools with the tool assembly");
        for (String prefix : modelOnly) {
            assertTrue(JARS.get("chat-turn").entries().stream().anyMatch(entry -> entry.startsWith(prefix)),
                    "the chat's jar holds " + prefix);
        }
    }

    /**
     * The AWS SDK's clients share one HTTP client, the JDK's URL connection ({@code url-connection-client}): every
     * SDK service module also brings Apache HttpClient 4 and 5 and Netty unless excluded, and each is megabytes a
     * cold start pays for (the SDK's 2.3x releases added {@code apache5-client} to the defaults).
     */
    @Test
    void noFunctionJarShipsASecondHttpClient() {
        List<String> problems = new ArrayList<>();
        JARS.forEach((module, jar) -> SECOND_HTTP_CLIENTS.forEach(prefix -> {
            if (jar.entries().stream().anyMatch(entry -> entry.startsWith(prefix))) {
                problems.add(module + ": " + prefix);
            }
        }));
        assertEquals(List.of(), problems, "HTTP clients besides url-connection-client (exclude them where the SDK module is declared)");
        JARS.forEach((module, jar) -> {
            if (jar.entries().stream().anyMatch(entry -> entry.startsWith("software/amazon/awssdk/core/"))) {
                assertTrue(jar.entries().stream().anyMatch(entry -> entry.startsWith("software/amazon/awssdk/http/urlconnection/")),
                        module + " uses the AWS SDK with url-connection-client");
            }
        });
    }

    private static final List<String> SECOND_HTTP_CLIENTS = List.of("org/apache/hc/", "org/apache/http/", "io/netty/",
            "software/amazon/awssdk/http/apache/", "software/amazon/awssdk/http/apache5/", "software/amazon/awssdk/http/nio/");

    @Test
    void theCheckSeesWhatItLooksFor() {
        // the walk starts from the template's handlers and follows references: each jar's handlers are in it and
        // reach more than themselves, and the development-only patterns catch what they name
        JARS.forEach((module, jar) -> {
            for (String handler : HANDLERS.get(module)) {
                assertTrue(jar.projectClasses().contains(handler.replace('.', '/')), module + " holds " + handler);
            }
            assertTrue(jar.reachableFrom(HANDLERS.get(module)).size() > HANDLERS.get(module).size() + 10, module);
        });
        assertTrue(DevelopmentOnlyCode.matches("dev/tablewright/fakes/model/ScriptedModelServer.class"));
        assertTrue(DevelopmentOnlyCode.matches("dev/tablewright/agent/toolcall/InProcessToolInvoker$1.class"));
        assertTrue(DevelopmentOnlyCode.matches("org/junit/jupiter/api/Test.class"));
        assertTrue(DevelopmentOnlyCode.matches("dev/tablewright/tools/SomethingTest.class"));
        assertFalse(DevelopmentOnlyCode.matches("dev/tablewright/agent/AgentLoop.class"));
        assertFalse(DevelopmentOnlyCode.matches("dev/tablewright/fakes/"));
    }

    /** Project classes named in the jar's start-up scripts and service files (loaded by name, not referenced). */
    private static Set<String> classesNamedByStartUpResources(FunctionJar jar) throws IOException {
        Set<String> out = new TreeSet<>();
        for (String text : jar.texts(entry -> entry.startsWith("META-INF/services/")
                || (!entry.contains("/") && !entry.endsWith(".class"))).values()) {
            Matcher m = PROJECT_CLASS.matcher(text);
            while (m.find()) {
                out.add(m.group());
            }
        }
        return out;
    }
}
