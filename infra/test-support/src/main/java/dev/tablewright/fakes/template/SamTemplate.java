package dev.tablewright.fakes.template;

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

    /** The function's {@code Handler} ({@code class::method}), Globals applied. */
    public String handler(String logicalId) {
        Object handler = functionProperties(logicalId).get("Handler");
        if (!(handler instanceof String s) || s.isBlank()) {
            throw new IllegalArgumentException(logicalId + " has no Handler in template.yaml");
        }
        return s;
    }

    /** Each parameter's {@code Default}, as text (parameters without a default are left out). */
    public Map<String, String> parameterDefaults() {
        Map<String, String> out = new LinkedHashMap<>();
        section("Parameters").forEach((name, value) -> {
            Object def = map(value).get("Default");
            if (def != null) {
                out.put(name, String.valueOf(def));
            }
        });
        return out;
    }

    /**
     * A function's environment variables as they would be on one machine: {@code !Ref} of a parameter is its
     * default, {@code !Ref} of a resource is its logical id (the local stand-ins name tables and functions by
     * logical id), pseudo parameters take local values, {@code !Sub} is substituted the same way. Values that
     * only exist in AWS ({@code !GetAtt}, imports, conditions) are listed in {@code unresolved}.
     */
    public LocalEnvironment localEnvironment(String logicalId) {
        Map<String, Object> variables = map(map(functionProperties(logicalId).get("Environment")).get("Variables"));
        Map<String, String> values = new LinkedHashMap<>();
        List<String> unresolved = new java.util.ArrayList<>();
        variables.forEach((name, value) -> {
            String resolved = resolveLocally(value);
            if (resolved == null) {
                unresolved.add(name);
            } else {
                values.put(name, resolved);
            }
        });
        return new LocalEnvironment(values, List.copyOf(unresolved));
    }

    /** Environment variables resolved for local use, and the names that could not be. */
    public record LocalEnvironment(Map<String, String> values, List<String> unresolved) {
    }

    private static final Map<String, String> LOCAL_PSEUDO_PARAMETERS = Map.of(
            "AWS::Region", "us-east-1", "AWS::AccountId", "000000000000", "AWS::Partition", "aws",
            "AWS::StackName", "tablewright-local", "AWS::URLSuffix", "amazonaws.com");

    /** A scalar or a {@code !Ref}/{@code !Sub} resolved locally; null when it only has a value in AWS. */
    public String resolveLocally(Object value) {
        if (value == null || value instanceof Map<?, ?> || value instanceof List<?>) {
            return null;
        }
        if (!(value instanceof Intrinsic intrinsic)) {
            return String.valueOf(value);
        }
        return switch (intrinsic.function()) {
            case "Ref" -> resolveName(String.valueOf(intrinsic.argument()));
            case "Sub" -> intrinsic.argument() instanceof String text ? substitute(text) : null;
            default -> null;
        };
    }

    private String resolveName(String name) {
        if (LOCAL_PSEUDO_PARAMETERS.containsKey(name)) {
            return LOCAL_PSEUDO_PARAMETERS.get(name);
        }
        Map<String, Object> parameter = map(section("Parameters").get(name));
        if (!parameter.isEmpty()) {
            Object def = parameter.get("Default");
            return def == null ? null : String.valueOf(def);
        }
        return section("Resources").containsKey(name) ? name : null;
    }

    private String substitute(String text) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\$\\{([^}!]+)}").matcher(text);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String name = m.group(1).trim();
            String value = name.contains(".") ? null : resolveName(name);
            if (value == null) {
                return null;
            }
            m.appendReplacement(out, java.util.regex.Matcher.quoteReplacement(value));
        }
        m.appendTail(out);
        return out.toString();
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
