package dev.tablewright.infra.template;

import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.AbstractConstruct;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * template.yaml, read once: the local stack, the invoke CLI and the tests take functions, routes and tables
 * from here so they can never drift from what {@code sam deploy} creates.
 *
 * <p>CloudFormation short-form intrinsics ({@code !Ref X}, {@code !GetAtt X.Arn}, {@code !Sub ...}) are read as
 * {@link Intrinsic} values so callers can resolve or ignore them.
 */
public final class SamTemplate {

    /** A CloudFormation intrinsic function in short form, e.g. {@code !Ref Stage} → {@code Intrinsic("Ref", "Stage")}. */
    public record Intrinsic(String function, Object argument) {
    }

    private final Map<String, Object> root;

    private SamTemplate(Map<String, Object> root) {
        this.root = root;
    }

    public static SamTemplate load(Path file) throws IOException {
        try (Reader reader = Files.newBufferedReader(file)) {
            Object loaded = new Yaml(new IntrinsicConstructor()).load(reader);
            if (!(loaded instanceof Map<?, ?> map)) {
                throw new IOException(file + " is not a YAML mapping");
            }
            @SuppressWarnings("unchecked") Map<String, Object> root = (Map<String, Object>) map;
            return new SamTemplate(root);
        }
    }

    /** Finds template.yaml from the working directory upwards (tests run in module directories). */
    public static Path locate() {
        Path dir = Path.of("").toAbsolutePath();
        for (Path p = dir; p != null; p = p.getParent()) {
            Path candidate = p.resolve("template.yaml");
            if (Files.isRegularFile(candidate)) {
                return candidate;
            }
        }
        throw new IllegalStateException("template.yaml not found from " + dir + " upwards");
    }

    public Map<String, Object> root() {
        return root;
    }

    public Map<String, Object> section(String name) {
        return map(root.get(name));
    }

    /** Resources of the given type (e.g. {@code AWS::Serverless::Function}), by logical id, in template order. */
    public Map<String, Map<String, Object>> resourcesOfType(String type) {
        Map<String, Map<String, Object>> out = new LinkedHashMap<>();
        section("Resources").forEach((id, value) -> {
            Map<String, Object> resource = map(value);
            if (type.equals(resource.get("Type"))) {
                out.put(id, resource);
            }
        });
        return out;
    }

    /** A function's Properties merged over {@code Globals.Function} (one level deep for Environment.Variables). */
    public Map<String, Object> functionProperties(String logicalId) {
        Map<String, Object> resource = resourcesOfType("AWS::Serverless::Function").get(logicalId);
        if (resource == null) {
            throw new IllegalArgumentException("no AWS::Serverless::Function named " + logicalId + " in template.yaml");
        }
        Map<String, Object> globals = map(section("Globals").get("Function"));
        Map<String, Object> merged = new LinkedHashMap<>(globals);
        Map<String, Object> own = map(resource.get("Properties"));
        merged.putAll(own);
        Map<String, Object> variables = new LinkedHashMap<>(map(map(globals.get("Environment")).get("Variables")));
        variables.putAll(map(map(own.get("Environment")).get("Variables")));
        merged.put("Environment", Map.of("Variables", variables));
        return merged;
    }

    @SuppressWarnings("unchecked")
    public static Map<String, Object> map(Object value) {
        return value instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
    }

    @SuppressWarnings("unchecked")
    public static List<Object> list(Object value) {
        return value instanceof List<?> l ? (List<Object>) l : List.of();
    }

    private static final class IntrinsicConstructor extends SafeConstructor {
        IntrinsicConstructor() {
            super(new LoaderOptions());
            for (String fn : List.of("Ref", "GetAtt", "Sub", "Join", "If", "Equals", "Not", "And", "Or",
                    "Select", "Split", "FindInMap", "ImportValue", "GetAZs", "Base64", "Condition", "Cidr")) {
                this.yamlConstructors.put(new Tag("!" + fn), new IntrinsicConstruct(fn));
            }
        }

        private final class IntrinsicConstruct extends AbstractConstruct {
            private final String function;

            IntrinsicConstruct(String function) {
                this.function = function;
            }

            @Override
            public Object construct(Node node) {
                Object argument = switch (node) {
                    case ScalarNode s -> constructScalar(s);
                    case SequenceNode s -> constructSequence(s);
                    case MappingNode m -> constructMapping(m);
                    default -> null;
                };
                return new Intrinsic(function, argument);
            }
        }
    }
}
