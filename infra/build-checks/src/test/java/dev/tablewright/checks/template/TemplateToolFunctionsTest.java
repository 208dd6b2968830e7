package dev.tablewright.checks.template;

import dev.tablewright.catalogue.ToolCatalogue;
import dev.tablewright.fakes.template.SamTemplate;
import dev.tablewright.lambda.ToolFunction;
import dev.tablewright.toolcontract.ToolDefinition;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * template.yaml follows from the registry: exactly one function per tool that runs as a function, named by
 * {@link ToolDefinition#functionLogicalId()}, whose handler is the class of that name in the package of the
 * Makefile module that builds it, and whose class really runs that tool.
 */
class TemplateToolFunctionsTest {

    /** Function module (directory under functions/) → handler package. */
    static final Map<String, String> PACKAGES = Map.of(
            "tools", "dev.tablewright.functions.tools",
            "user-input", "dev.tablewright.functions.userinput",
            "conversations", "dev.tablewright.functions.conversations",
            "configs", "dev.tablewright.functions.configs",
            "chat-turn", "dev.tablewright.functions.chat");

    static final Pattern MAKE_LINE = Pattern.compile("(?m)^build-([A-Za-z0-9]+):\\s*MODULE\\s*=\\s*(\\S+)\\s*$");

    static Map<String, String> makefileModules(Path root) throws Exception {
        Map<String, String> modules = new LinkedHashMap<>();
        Matcher m = MAKE_LINE.matcher(Files.readString(root.resolve("Makefile")));
        while (m.find()) {
            modules.put(m.group(1), m.group(2));
        }
        return modules;
    }

    @Test
    void oneFunctionPerFunctionToolWithItsHandler() throws Exception {
        Path file = SamTemplate.locate();
        SamTemplate template = SamTemplate.load(file);
        Map<String, String> modules = makefileModules(file.getParent());
        Map<String, Map<String, Object>> functions = template.resourcesOfType("AWS::Serverless::Function");
        List<String> problems = new ArrayList<>();

        for (ToolDefinition tool : ToolCatalogue.registry().functionTools()) {
            String id = tool.functionLogicalId();
            if (!functions.containsKey(id)) {
                problems.add(tool.name() + ": no function " + id + " in template.yaml");
                continue;
            }
            String module = modules.get(id);
            if (module == null || !PACKAGES.containsKey(module)) {
                problems.add(id + ": the Makefile has no line 'build-" + id + ": MODULE=<" + String.join("|", new TreeSet<>(PACKAGES.keySet())) + ">'");
                continue;
            }
            String expected = PACKAGES.get(module) + "." + id + "::handleRequest";
            String handler = String.valueOf(template.functionProperties(id).get("Handler"));
            if (!expected.equals(handler)) {
                problems.add(id + ": Handler is " + handler + ", expected " + expected);
            }
            Object build = SamTemplate.map(functions.get(id).get("Metadata")).get("BuildMethod");
            if (!"makefile".equals(build)) {
                problems.add(id + ": Metadata.BuildMethod must be makefile, is " + build);
            }
            problems.addAll(runsTheTool(PACKAGES.get(module) + "." + id, tool));
        }

        // And the other way round: a function whose handler is a ToolFunction must be a registered tool.
        Set<String> toolIds = new TreeSet<>();
        ToolCatalogue.registry().functionTools().forEach(t -> toolIds.add(t.functionLogicalId()));
        for (String id : functions.keySet()) {
            if (isToolFunction(String.valueOf(template.functionProperties(id).get("Handler"))) && !toolIds.contains(id)) {
                problems.add(id + ": its handler is a ToolFunction but no tool of the tool bundle is named for it");
            }
        }
        assertEquals(List.of(), problems);
    }

    @Test
    void everyTemplateFunctionHasItsMakefileLine() throws Exception {
        Path file = SamTemplate.locate();
        Set<String> functions = new TreeSet<>(SamTemplate.load(file).resourcesOfType("AWS::Serverless::Function").keySet());
        Set<String> lines = new TreeSet<>(makefileModules(file.getParent()).keySet());
        assertEquals(functions, lines, "template.yaml functions vs Makefile 'build-<LogicalId>: MODULE=...' lines");
    }

    @Test
    void operationToolsRunInTheToolsModule() throws Exception {
        Path file = SamTemplate.locate();
        Map<String, String> modules = makefileModules(file.getParent());
        for (String id : List.of("ApplyColumnChangeFunction", "ApplyFilterChangeFunction", "ApplyJoinChangeFunction",
                "ApplySortChangeFunction", "ValidateTableConfigFunction", "DiscoverTableReferenceFunction")) {
            assertEquals("tools", modules.get(id), id);
        }
    }

    private static List<String> runsTheTool(String className, ToolDefinition tool) {
        try {
            Class<?> type = Class.forName(className);
            if (!ToolFunction.class.isAssignableFrom(type)) {
                return List.of(className + " does not extend ToolFunction");
            }
            ToolFunction function = (ToolFunction) type.getConstructor().newInstance();
            String runs = function.definition().name();
            return runs.equals(tool.name()) ? List.of() : List.of(className + " runs " + runs + ", not " + tool.name());
        } catch (ClassNotFoundException e) {
            return List.of(className + " is not on infra's classpath: add its function module to infra/pom.xml");
        } catch (ReflectiveOperationException | LinkageError e) {
            return List.of(className + " cannot be created with its no-arg constructor: " + e);
        }
    }

    private static boolean isToolFunction(String handler) {
        String className = handler.contains("::") ? handler.substring(0, handler.indexOf("::")) : handler;
        try {
            return ToolFunction.class.isAssignableFrom(Class.forName(className, false, TemplateToolFunctionsTest.class.getClassLoader()));
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    @Test
    void localEnvironmentResolvesReferencesAndSkipsWhatOnlyExistsInAws() throws Exception {
        Path tmp = Files.createTempFile("template", ".yaml");
        Files.writeString(tmp, """
                Parameters:
                  Stage: {Type: String, Default: dev}
                Globals:
                  Function:
                    Environment:
                      Variables:
                        STAGE: !Ref Stage
                        PLAIN: value
                Resources:
                  Things:
                    Type: AWS::DynamoDB::Table
                  Fn:
                    Type: AWS::Serverless::Function
                    Properties:
                      Handler: a.B::handleRequest
                      Environment:
                        Variables:
                          TABLE: !Ref Things
                          NAME: !Sub "tw-${Stage}-${AWS::Region}"
                          ARN: !GetAtt Things.Arn
                          PLAIN: override
                """);
        SamTemplate template = SamTemplate.load(tmp);
        SamTemplate.LocalEnvironment env = template.localEnvironment("Fn");
        assertEquals(Map.of("STAGE", "dev", "PLAIN", "override", "TABLE", "Things", "NAME", "tw-dev-us-east-1"), env.values());
        assertEquals(List.of("ARN"), env.unresolved());
        assertEquals("a.B::handleRequest", template.handler("Fn"));
        assertEquals(Map.of("Stage", "dev"), template.parameterDefaults());
        assertTrue(template.resolveLocally(List.of()) == null);
        Files.delete(tmp);
    }
}
