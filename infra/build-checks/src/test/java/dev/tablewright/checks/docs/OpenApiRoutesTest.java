package dev.tablewright.checks.docs;

import dev.tablewright.fakes.template.HttpApiRoutes;
import dev.tablewright.fakes.template.SamTemplate;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static dev.tablewright.fakes.template.SamTemplate.list;
import static dev.tablewright.fakes.template.SamTemplate.map;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * docs/api/openapi.yaml and template.yaml describe the same HTTP API: every HttpApi route of the template is
 * documented, every documented operation is a route of the template, and every path parameter is declared.
 * Generic: a route added to the template fails this test until it is documented (and the other way round).
 */
class OpenApiRoutesTest {

    private static final Set<String> METHODS = Set.of("get", "put", "post", "delete", "patch", "head", "options");
    private static final Pattern PARAM = Pattern.compile("\\{([A-Za-z0-9_]+)\\+?}");

    private static Map<String, Object> openApi() throws IOException {
        Path file = SamTemplate.locate().getParent().resolve("docs/api/openapi.yaml");
        try (Reader reader = Files.newBufferedReader(file)) {
            return map(new Yaml(new SafeConstructor(new LoaderOptions())).load(reader));
        }
    }

    @Test
    void everyTemplateRouteIsDocumentedAndNothingElse() throws IOException {
        Set<String> template = new TreeSet<>();
        for (HttpApiRoutes.Route route : HttpApiRoutes.of(SamTemplate.load(SamTemplate.locate()))) {
            template.add(route.method() + " " + route.path());
        }
        Set<String> documented = new TreeSet<>();
        map(openApi().get("paths")).forEach((path, item) -> map(item).keySet().stream()
                .filter(METHODS::contains)
                .forEach(method -> documented.add(method.toUpperCase(Locale.ROOT) + " " + path)));

        Set<String> undocumented = new TreeSet<>(template);
        undocumented.removeAll(documented);
        Set<String> notInTemplate = new TreeSet<>(documented);
        notInTemplate.removeAll(template);
        assertTrue(undocumented.isEmpty(), "routes of template.yaml missing from docs/api/openapi.yaml: " + undocumented);
        assertTrue(notInTemplate.isEmpty(), "operations of docs/api/openapi.yaml that template.yaml does not route: " + notInTemplate);
        assertTrue(template.contains("POST /conversations/{conversationId}/input-requests/{toolCallId}/response"));
    }

    @Test
    void everyPathParameterIsDeclaredAndEveryOperationAnswers() throws IOException {
        Map<String, Object> doc = openApi();
        assertEquals("3.1.0", String.valueOf(doc.get("openapi")));
        Map<String, Object> components = map(map(doc.get("components")).get("parameters"));
        List<String> problems = new ArrayList<>();
        map(doc.get("paths")).forEach((path, value) -> {
            Map<String, Object> item = map(value);
            Set<String> shared = declaredPathParameters(item.get("parameters"), components);
            item.forEach((method, operation) -> {
                if (!METHODS.contains(method)) {
                    return;
                }
                Set<String> declared = new TreeSet<>(shared);
                declared.addAll(declaredPathParameters(map(operation).get("parameters"), components));
                Matcher m = PARAM.matcher(path);
                while (m.find()) {
                    if (!declared.contains(m.group(1))) {
                        problems.add(method + " " + path + ": path parameter " + m.group(1) + " is not declared");
                    }
                }
                Map<String, Object> responses = map(map(operation).get("responses"));
                if (responses.keySet().stream().noneMatch(code -> String.valueOf(code).startsWith("2"))) {
                    problems.add(method + " " + path + ": no success response");
                }
            });
        });
        assertTrue(problems.isEmpty(), String.join("\n", problems));
    }

    private static Set<String> declaredPathParameters(Object parameters, Map<String, Object> components) {
        Set<String> names = new TreeSet<>();
        for (Object p : list(parameters)) {
            Map<String, Object> parameter = map(p);
            Object ref = parameter.get("$ref");
            if (ref != null) {
                parameter = map(components.get(String.valueOf(ref).substring(String.valueOf(ref).lastIndexOf('/') + 1)));
            }
            if ("path".equals(parameter.get("in"))) {
                names.add(String.valueOf(parameter.get("name")));
            }
        }
        return names;
    }
}
