package dev.tablewright.checks.template;

import dev.tablewright.fakes.template.SamTemplate;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import static dev.tablewright.fakes.template.SamTemplate.map;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * template.yaml against the code: the real template passes, and small mutated copies of it (a handler, a
 * variable, a route, a permission missing or extra) each fail with a message naming the problem.
 */
class TemplateCheckTest {

    private static Path root;
    private static Path template;
    private static Path makefile;

    @TempDir
    Path tmp;

    @BeforeAll
    static void locate() {
        template = SamTemplate.locate();
        root = template.getParent();
        makefile = root.resolve("Makefile");
    }

    @Test
    void theRealTemplateMatchesTheCode() throws IOException {
        List<String> problems = TemplateCheck.check(template, makefile, root);
        assertEquals(List.of(), problems, "template.yaml does not match the code:\n" + String.join("\n", problems));
    }

    // ---- mutations ----

    private List<String> mutated(Consumer<Map<String, Object>> mutation) throws IOException {
        SamTemplate copy = SamTemplate.load(template);
        mutation.accept(copy.root());
        return TemplateCheck.check(TemplateYamlWriter.write(copy.root(), tmp.resolve("template.yaml")), makefile, root);
    }

    private List<String> withMakefile(String text) throws IOException {
        Path file = tmp.resolve("Makefile");
        Files.writeString(file, text);
        return TemplateCheck.check(template, file, root);
    }

    private static void assertProblem(List<String> problems, String... fragments) {
        boolean found = problems.stream().anyMatch(p -> {
            for (String f : fragments) {
                if (!p.contains(f)) {
                    return false;
                }
            }
            return true;
        });
        assertTrue(found, "expected a problem mentioning " + List.of(fragments) + ", got:\n" + String.join("\n", problems));
    }

    /** The first function whose permissions are SAM Policies (not a role written out in the template). */
    private static String firstFunction(Map<String, Object> root) {
        return functions(root).stream().filter(f -> !properties(root, f).containsKey("Role")).findFirst().orElseThrow();
    }

    private static List<String> functions(Map<String, Object> root) {
        List<String> out = new ArrayList<>();
        map(root.get("Resources")).forEach((id, r) -> {
            if ("AWS::Serverless::Function".equals(map(r).get("Type"))) {
                out.add(id);
            }
        });
        assertFalse(out.isEmpty(), "template.yaml has no functions");
        return out;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> properties(Map<String, Object> root, String functionId) {
        return (Map<String, Object>) map(map(root.get("Resources")).get(functionId)).get("Properties");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> variables(Map<String, Object> root, String functionId) {
        Map<String, Object> props = properties(root, functionId);
        Map<String, Object> env = (Map<String, Object>) props.computeIfAbsent("Environment", k -> new LinkedHashMap<>());
        return (Map<String, Object>) env.computeIfAbsent("Variables", k -> new LinkedHashMap<>());
    }

    @SuppressWarnings("unchecked")
    private static List<Object> policies(Map<String, Object> root, String functionId) {
        Map<String, Object> props = properties(root, functionId);
        Object current = props.get("Policies");
        List<Object> list = current instanceof List<?> l ? (List<Object>) l : new ArrayList<>();
        if (current != null && !(current instanceof List<?>)) {
            list.add(current);
        }
        props.put("Policies", list);
        return list;
    }

    @Test
    void aHandlerClassThatIsNotInTheJarFails() throws IOException {
        String[] id = new String[1];
        List<String> problems = mutated(r -> {
            id[0] = firstFunction(r);
            Map<String, Object> props = properties(r, id[0]);
            props.put("Handler", String.valueOf(props.get("Handler")).replace("::", "Missing::"));
        });
        assertProblem(problems, id[0], "Missing", "is not in");
    }

    @Test
    void aFunctionMissingFromTheMakefileFails() throws IOException {
        String first = functions(SamTemplate.load(template).root()).getFirst();
        List<String> problems = withMakefile(Files.readString(makefile).replaceAll("(?m)^build-" + first + ":.*$", ""));
        assertProblem(problems, first, "Makefile");
    }

    @Test
    void aMakefileLineForNoFunctionFails() throws IOException {
        List<String> problems = withMakefile(Files.readString(makefile) + "\nbuild-GhostFunction: MODULE=tools\n");
        assertProblem(problems, "build-GhostFunction", "names no function");
    }

    @Test
    void aFunctionWithoutTheMakefileBuildMethodFails() throws IOException {
        String[] id = new String[1];
        List<String> problems = mutated(r -> {
            id[0] = firstFunction(r);
            map(r.get("Resources")).get(id[0]);
            ((Map<String, Object>) map(r.get("Resources")).get(id[0])).remove("Metadata");
        });
        assertProblem(problems, id[0], "BuildMethod");
    }

    /** The first function that sets variables of its own (its code is then read for the variables it uses). */
    private static String firstFunctionWithVariables(Map<String, Object> root) {
        for (String f : functions(root)) {
            if (!map(map(properties(root, f).get("Environment")).get("Variables")).isEmpty()) {
                return f;
            }
        }
        throw new AssertionError("no function of template.yaml sets a variable of its own");
    }

    @Test
    void aVariableNoCodeReadsFails() throws IOException {
        String[] id = new String[1];
        List<String> problems = mutated(r -> {
            id[0] = firstFunctionWithVariables(r);
            variables(r, id[0]).put("UNUSED_SETTING", "x");
        });
        assertProblem(problems, id[0], "UNUSED_SETTING", "none of its code reads");
    }

    @Test
    void aVariableTheCodeRequiresButTheTemplateDoesNotSetFails() throws IOException {
        String[] found = new String[2];
        // Variables docs/configuration.md marks optional may be left unset: removing one is no problem.
        List<String> optional = Files.readAllLines(root.resolve("docs/configuration.md")).stream()
                .filter(l -> l.startsWith("|") && l.matches(".*\\boptional\\b.*")).toList();
        List<String> problems = mutated(r -> {
            for (String f : functions(r)) {
                Map<String, Object> vars = variables(r, f);
                for (String name : List.copyOf(vars.keySet())) {
                    boolean isOptional = optional.stream().anyMatch(l -> l.split("\\|")[1].contains("`" + name + "`"));
                    if (!TemplateCheck.RUNTIME_VARIABLES.contains(name) && !isOptional) {
                        found[0] = f;
                        found[1] = name;
                        vars.remove(name);
                        return;
                    }
                }
            }
        });
        assertTrue(found[0] != null, "no function of template.yaml sets a variable of its own");
        assertProblem(problems, found[0], found[1]);
    }

    @Test
    void aRouteWithoutAnAuthorizerFails() throws IOException {
        String[] id = new String[1];
        List<String> problems = mutated(r -> {
            id[0] = firstFunction(r);
            addRoute(r, id[0], "/probe/open", Map.of("Authorizer", "NONE"));
        });
        assertProblem(problems, id[0], "GET /probe/open", "no authorizer");
    }

    @Test
    void aRouteMissingFromTheOpenApiFileFails() throws IOException {
        String[] id = new String[1];
        List<String> problems = mutated(r -> {
            id[0] = firstFunction(r);
            addRoute(r, id[0], "/probe/undocumented", null);
        });
        assertProblem(problems, "GET /probe/undocumented", "openapi");
    }

    @SuppressWarnings("unchecked")
    private static void addRoute(Map<String, Object> r, String functionId, String path, Map<String, Object> auth) {
        Map<String, Object> props = properties(r, functionId);
        Map<String, Object> events = (Map<String, Object>) props.computeIfAbsent("Events", k -> new LinkedHashMap<>());
        Map<String, Object> eventProps = new LinkedHashMap<>();
        eventProps.put("ApiId", new SamTemplate.Intrinsic("Ref", "HttpApi"));
        eventProps.put("Path", path);
        eventProps.put("Method", "GET");
        if (auth != null) {
            eventProps.put("Auth", auth);
        }
        events.put("Probe", new LinkedHashMap<>(Map.of("Type", "HttpApi", "Properties", eventProps)));
    }

    @Test
    void aTablePermissionTheFunctionDoesNotUseFails() throws IOException {
        String[] id = new String[1];
        String table = SamTemplate.load(template).resourcesOfType("AWS::DynamoDB::Table").keySet().iterator().next();
        List<String> problems = mutated(r -> {
            id[0] = firstFunction(r);
            policies(r, id[0]).add(new LinkedHashMap<>(Map.of("DynamoDBCrudPolicy",
                    new LinkedHashMap<>(Map.of("TableName", new SamTemplate.Intrinsic("Ref", table))))));
        });
        assertProblem(problems, id[0], table, "does not point at");
    }

    @Test
    void aTableTheFunctionUsesWithoutAPermissionFails() throws IOException {
        String table = SamTemplate.load(template).resourcesOfType("AWS::DynamoDB::Table").keySet().iterator().next();
        String[] id = new String[1];
        List<String> problems = mutated(r -> {
            id[0] = firstFunction(r);
            variables(r, id[0]).put("SOME_TABLE", new SamTemplate.Intrinsic("Ref", table));
        });
        assertProblem(problems, id[0], table, "no policy grants");
    }

    @Test
    void aWildcardResourceFails() throws IOException {
        String[] id = new String[1];
        List<String> problems = mutated(r -> {
            id[0] = firstFunction(r);
            policies(r, id[0]).add(new LinkedHashMap<>(Map.of("Statement", List.of(new LinkedHashMap<>(Map.of(
                    "Effect", "Allow", "Action", List.of("dynamodb:GetItem"), "Resource", "*"))))));
        });
        assertProblem(problems, id[0], "every resource");
    }

    @Test
    void anInvokePermissionTheFunctionDoesNotUseFails() throws IOException {
        String[] ids = new String[2];
        List<String> problems = mutated(r -> {
            List<String> all = functions(r);
            ids[0] = firstFunction(r);
            ids[1] = all.getLast();
            policies(r, ids[0]).add(new LinkedHashMap<>(Map.of("LambdaInvokePolicy",
                    new LinkedHashMap<>(Map.of("FunctionName", new SamTemplate.Intrinsic("Ref", ids[1]))))));
        });
        assertProblem(problems, ids[0], ids[1], "does not point at");
    }

    @Test
    void policiesBesideARoleFail() throws IOException {
        String[] id = new String[1];
        List<String> problems = mutated(r -> {
            id[0] = functions(r).stream().filter(f -> properties(r, f).containsKey("Role")).findFirst().orElseThrow();
            policies(r, id[0]).add("AWSLambdaBasicExecutionRole");
        });
        assertProblem(problems, id[0], "SAM ignores Policies");
    }

    @Test
    void aRoleThatGrantsATableTheFunctionDoesNotUseFails() throws IOException {
        List<String> problems = mutated(r -> {
            Map<String, Object> role = map(map(map(r.get("Resources")).get("DataSourceToolRole")).get("Properties"));
            role.put("Policies", new ArrayList<>(List.of(new LinkedHashMap<>(Map.of("PolicyName", "extra", "PolicyDocument",
                    new LinkedHashMap<>(Map.of("Statement", List.of(new LinkedHashMap<>(Map.of("Effect", "Allow",
                            "Action", "dynamodb:GetItem", "Resource", new SamTemplate.Intrinsic("GetAtt", "ConfigsTable.Arn")))))))))));
        });
        assertProblem(problems, "ApplyColumnChangeFunction", "ConfigsTable", "does not point at");
    }
}
