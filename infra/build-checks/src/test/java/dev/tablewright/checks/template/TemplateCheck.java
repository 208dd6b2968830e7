package dev.tablewright.checks.template;

import dev.tablewright.fakes.template.HttpApiRoutes;
import dev.tablewright.fakes.template.SamTemplate;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static dev.tablewright.fakes.template.SamTemplate.list;
import static dev.tablewright.fakes.template.SamTemplate.map;

/**
 * Checks template.yaml against the code that will run under it, and lists every problem found:
 * <ul>
 *   <li>the Makefile builds exactly the template's functions, each from a module whose package holds its handler;</li>
 *   <li>each handler class is in the jar its module builds ({@code functions/<module>/target/*-lambda.jar});</li>
 *   <li>each environment variable the handler's code reads (bytecode, see {@link FunctionJar}) is set, unless the
 *       code has a fallback or Lambda itself sets it; each variable set is read by someone;</li>
 *   <li>each route is on a declared HTTP API, guarded by an authorizer, unique, and documented in the OpenAPI
 *       file, and each documented route has a function;</li>
 *   <li>each function is granted exactly the tables, functions and secrets its environment points it at, never on
 *       a wildcard resource, and the chat function may invoke tool functions only.</li>
 * </ul>
 */
final class TemplateCheck {

    /** Read by the Lambda runtime or the JVM, not by our code: may be set without a reader. */
    static final Set<String> RUNTIME_VARIABLES = Set.of("JAVA_TOOL_OPTIONS", "AWS_LAMBDA_EXEC_WRAPPER",
            // Informational: lets log queries and dashboards tell stages apart; no code needs to read it.
            "STAGE",
            // Set for every function (Globals): read by those that write metric records (tool functions, the chat turn).
            "METRICS_NAMESPACE");
    /** Set only on one machine (local engines): read with a fallback-free Env.get but never set in AWS. */
    static final Set<String> LOCAL_ONLY_VARIABLES = Set.of("DYNAMODB_ENDPOINT");
    /** Variables read by prefix (the chat function's TOOL_FUNCTION_<TOOL> map), not by literal name. */
    static final Set<String> DYNAMIC_PREFIXES = Set.of(dev.tablewright.invoke.LambdaToolInvoker.ENV_PREFIX);
    static final String TOOL_FUNCTION_BASE = "dev.tablewright.lambda.ToolFunction";

    private static final Pattern MAKE_LINE = Pattern.compile("(?m)^build-([A-Za-z0-9]+):\\s*MODULE\\s*=\\s*(\\S+)\\s*$");
    private static final Map<String, List<String>> MODULE_PACKAGES = Map.of(
            "tools", List.of("dev.tablewright.functions.tools."),
            "user-input", List.of("dev.tablewright.functions.userinput."),
            "conversations", List.of("dev.tablewright.functions.conversations."),
            "configs", List.of("dev.tablewright.functions.configs."),
            "chat-turn", List.of("dev.tablewright.functions.chat."));

    private final SamTemplate template;
    private final String makefile;
    private final Path openApi;
    private final Path root;
    private final Map<String, FunctionJar> jars = new HashMap<>();
    private final List<String> problems = new ArrayList<>();
    /** Variables docs/configuration.md marks optional (a table row with the name in backticks and "optional"). */
    private final Set<String> documentedOptional = new TreeSet<>();
    /** Variables docs/configuration.md names in the first cell of a table row. */
    private final Set<String> documented = new TreeSet<>();

    private TemplateCheck(SamTemplate template, String makefile, Path openApi, Path root) {
        this.template = template;
        this.makefile = makefile;
        this.openApi = openApi;
        this.root = root;
    }

    /** Problems of the given template and Makefile against the jars and OpenAPI file under {@code root}. */
    static List<String> check(Path templateFile, Path makefileFile, Path root) throws IOException {
        TemplateCheck c = new TemplateCheck(SamTemplate.load(templateFile), Files.readString(makefileFile),
                root.resolve("docs/api/openapi.yaml"), root);
        c.run();
        return c.problems;
    }

    private void run() throws IOException {
        Path configuration = root.resolve("docs/configuration.md");
        if (Files.isRegularFile(configuration)) {
            Pattern name = Pattern.compile("`([A-Z][A-Z0-9_]*[A-Z0-9_])`");
            for (String line : Files.readAllLines(configuration)) {
                if (!line.startsWith("|")) {
                    continue;
                }
                String[] cells = line.split("\\|");
                Matcher m = name.matcher(cells.length > 1 ? cells[1] : "");
                while (m.find()) {
                    documented.add(m.group(1));
                    if (line.matches(".*\\boptional\\b.*")) {
                        documentedOptional.add(m.group(1));
                    }
                }
            }
        } else {
            problems.add("docs/configuration.md is missing");
        }
        Map<String, Map<String, Object>> functions = template.resourcesOfType("AWS::Serverless::Function");
        Map<String, String> modules = makefileModules();
        checkMakefile(functions.keySet(), modules);
        Set<String> toolFunctions = new TreeSet<>();
        Map<String, String> handlers = new LinkedHashMap<>();
        for (String id : functions.keySet()) {
            Map<String, Object> props = template.functionProperties(id);
            if (!"makefile".equals(map(functions.get(id).get("Metadata")).get("BuildMethod"))) {
                problems.add(id + ": Metadata.BuildMethod must be makefile");
            }
            String module = modules.get(id);
            Object handlerValue = props.get("Handler");
            if (!(handlerValue instanceof String handlerString)) {
                problems.add(id + ": no Handler");
                continue;
            }
            String handler = handlerString.contains("::") ? handlerString.substring(0, handlerString.indexOf("::")) : handlerString;
            handlers.put(id, handler);
            if (module == null) {
                continue;
            }
            List<String> expectedPackages = MODULE_PACKAGES.get(module);
            if (expectedPackages != null && expectedPackages.stream().noneMatch(handler::startsWith)) {
                problems.add(id + ": handler " + handler + " is not in " + String.join("* or ", expectedPackages) + "* (module functions/" + module + ")");
            }
            FunctionJar jar = jar(module);
            if (jar == null) {
                problems.add(id + ": functions/" + module + "/target/*-lambda.jar is missing (build the modules first: mvn -B verify)");
                continue;
            }
            if (!jar.hasClass(handler)) {
                problems.add(id + ": handler class " + handler + " is not in " + root.relativize(jar.path()));
                continue;
            }
            if (jar.superclasses(handler).contains(TOOL_FUNCTION_BASE)) {
                toolFunctions.add(id);
            }
            checkEnvironment(id, props, jar.variablesReadFrom(handler));
        }
        checkRoutes();
        for (String id : functions.keySet()) {
            checkPermissions(id, template.functionProperties(id), functions.keySet(), toolFunctions);
        }
    }

    // ---- Makefile ----

    private Map<String, String> makefileModules() {
        Map<String, String> out = new LinkedHashMap<>();
        for (Map.Entry<String, String> line : buildLines(makefile)) {
            if (out.put(line.getKey(), line.getValue()) != null) {
                problems.add("Makefile: build-" + line.getKey() + " is listed twice");
            }
        }
        return out;
    }

    /** The Makefile's {@code build-<LogicalId>: MODULE=<module>} lines, in order: which module's jar each function runs. */
    static List<Map.Entry<String, String>> buildLines(String makefile) {
        List<Map.Entry<String, String>> out = new ArrayList<>();
        Matcher m = MAKE_LINE.matcher(makefile);
        while (m.find()) {
            out.add(Map.entry(m.group(1), m.group(2)));
        }
        return out;
    }

    private void checkMakefile(Set<String> functions, Map<String, String> modules) {
        for (String id : functions) {
            if (!modules.containsKey(id)) {
                problems.add(id + ": no line `build-" + id + ": MODULE=<module>` in the Makefile");
            }
        }
        for (Map.Entry<String, String> e : modules.entrySet()) {
            if (!functions.contains(e.getKey())) {
                problems.add("Makefile: build-" + e.getKey() + " names no function of template.yaml");
            }
            if (!Files.isDirectory(root.resolve("functions").resolve(e.getValue()))) {
                problems.add("Makefile: build-" + e.getKey() + " names module functions/" + e.getValue() + ", which does not exist");
            }
        }
    }

    private FunctionJar jar(String module) throws IOException {
        if (jars.containsKey(module)) {
            return jars.get(module);
        }
        FunctionJar jar = null;
        Path target = root.resolve("functions").resolve(module).resolve("target");
        if (Files.isDirectory(target)) {
            try (DirectoryStream<Path> found = Files.newDirectoryStream(target, "*-lambda.jar")) {
                for (Path p : found) {
                    jar = FunctionJar.read(p);
                    break;
                }
            }
        }
        jars.put(module, jar);
        return jar;
    }

    // ---- environment ----

    private void checkEnvironment(String id, Map<String, Object> props, Map<String, FunctionJar.Use> read) {
        Set<String> set = map(map(props.get("Environment")).get("Variables")).keySet();
        read.forEach((name, use) -> {
            if (!documented.contains(name) && !providedByLambda(name)) {
                problems.add(id + ": its code reads environment variable " + name + ", which docs/configuration.md does not describe");
            }
            if (set.contains(name) || providedByLambda(name) || LOCAL_ONLY_VARIABLES.contains(name)) {
                return;
            }
            if (use == FunctionJar.Use.REQUIRED) {
                problems.add(id + ": its code requires environment variable " + name + ", which the template does not set");
            } else if (use == FunctionJar.Use.READ && !documentedOptional.contains(name)) {
                problems.add(id + ": its code reads environment variable " + name + ", which the template does not set"
                        + " (set it, or give it a fallback in code, or mark it optional in docs/configuration.md)");
            }
        });
        for (String name : set) {
            boolean readByPrefix = DYNAMIC_PREFIXES.stream().anyMatch(name::startsWith);
            if (!read.containsKey(name) && !RUNTIME_VARIABLES.contains(name) && !readByPrefix) {
                problems.add(id + ": sets environment variable " + name + ", which none of its code reads");
            }
        }
    }

    private static boolean providedByLambda(String name) {
        return name.startsWith("AWS_") || name.startsWith("LAMBDA_") || name.startsWith("_");
    }

    // ---- routes ----

    private void checkRoutes() throws IOException {
        List<HttpApiRoutes.Route> routes = HttpApiRoutes.of(template);
        Set<String> keys = new LinkedHashSet<>();
        Set<String> apis = template.resourcesOfType("AWS::Serverless::HttpApi").keySet();
        for (HttpApiRoutes.Route r : routes) {
            if (!keys.add(r.routeKey())) {
                problems.add("route " + r.routeKey() + " is declared twice");
            }
            if (!apis.contains(r.apiId())) {
                problems.add(r.functionId() + ": route " + r.routeKey() + " is on " + r.apiId() + ", not a declared AWS::Serverless::HttpApi");
            }
            if (r.authorizer().isEmpty()) {
                problems.add(r.functionId() + ": route " + r.routeKey() + " has no authorizer");
            } else if (!HttpApiRoutes.authorizers(template, r.apiId()).containsKey(r.authorizer().get())) {
                problems.add(r.functionId() + ": route " + r.routeKey() + " names authorizer " + r.authorizer().get() + ", which " + r.apiId() + " does not define");
            }
        }
        if (routes.isEmpty()) {
            return;
        }
        if (!Files.isRegularFile(openApi)) {
            problems.add("docs/api/openapi.yaml is missing (the template has " + routes.size() + " routes)");
            return;
        }
        Set<String> documentedRoutes = new LinkedHashSet<>();
        map(SamTemplate.load(openApi).root().get("paths")).forEach((path, item) ->
                map(item).keySet().forEach(method -> {
                    if (Set.of("get", "put", "post", "delete", "patch", "head", "options").contains(method)) {
                        documentedRoutes.add(method.toUpperCase(Locale.ROOT) + " " + path);
                    }
                }));
        for (HttpApiRoutes.Route r : routes) {
            if (!documentedRoutes.contains(r.routeKey())) {
                problems.add(r.functionId() + ": route " + r.routeKey() + " is not in docs/api/openapi.yaml");
            }
        }
        for (String d : documentedRoutes) {
            if (!keys.contains(d)) {
                problems.add("docs/api/openapi.yaml: route " + d + " has no function in template.yaml");
            }
        }
    }

    // ---- permissions ----

    /** What a function's policies grant, by target logical id (or a parameter for secrets), and wildcards. */
    private record Grants(Set<String> tables, Set<String> functions, Set<String> secrets, List<String> wildcards) {
    }

    private void checkPermissions(String id, Map<String, Object> props, Set<String> functionIds, Set<String> toolFunctions) {
        Set<String> tableIds = template.resourcesOfType("AWS::DynamoDB::Table").keySet();
        Set<String> secretIds = new LinkedHashSet<>(template.resourcesOfType("AWS::SecretsManager::Secret").keySet());
        template.section("Parameters").keySet().stream().filter(p -> p.toLowerCase(Locale.ROOT).contains("secret")).forEach(secretIds::add);

        Set<String> referenced = new LinkedHashSet<>();
        collectReferences(map(props.get("Environment")).get("Variables"), referenced);
        // A function's alias (`!Ref XFunction.Alias`, or SAM's XFunctionAliaslive) is that function.
        for (String r : List.copyOf(referenced)) {
            Matcher alias = Pattern.compile("(.+Function)Alias[A-Za-z0-9]+").matcher(r);
            if (alias.matches() && functionIds.contains(alias.group(1))) {
                referenced.add(alias.group(1));
            }
        }
        Set<String> usesTables = intersect(referenced, tableIds);
        Set<String> usesFunctions = intersect(referenced, functionIds);
        Set<String> usesSecrets = intersect(referenced, secretIds);

        if (props.containsKey("Role") && props.containsKey("Policies")) {
            problems.add(id + ": has a Role and Policies; SAM ignores Policies when a Role is given (put them in the role)");
        }
        Object policies = props.containsKey("Role") ? rolePolicies(id, props.get("Role")) : props.get("Policies");
        Grants grants = grants(policies, tableIds, functionIds, secretIds);
        compare(id, "DynamoDB table", usesTables, grants.tables());
        compare(id, "function invoke", usesFunctions, grants.functions());
        // Secrets: a missing grant is a problem; an extra one is not checked, because a JSON parameter (DataSources)
        // can name secrets that only the grant lists.
        for (String secret : usesSecrets) {
            if (!grants.secrets().contains(secret)) {
                problems.add(id + ": its environment points at " + secret + " but no policy grants secret on it");
            }
        }
        grants.wildcards().forEach(w -> problems.add(id + ": policy grants " + w + " on every resource (*)"));
        if (!map(props.get("FunctionUrlConfig")).isEmpty()) {
            for (String f : grants.functions()) {
                if (!toolFunctions.contains(f)) {
                    problems.add(id + ": the chat function may invoke tool functions only, not " + f);
                }
            }
        }
    }

    private void compare(String id, String kind, Set<String> used, Set<String> granted) {
        for (String u : used) {
            if (!granted.contains(u)) {
                problems.add(id + ": its environment points at " + u + " but no policy grants " + kind + " on it");
            }
        }
        for (String g : granted) {
            if (!used.contains(g)) {
                problems.add(id + ": a policy grants " + kind + " on " + g + ", which its environment does not point at");
            }
        }
    }

    private Grants grants(Object policies, Set<String> tableIds, Set<String> functionIds, Set<String> secretIds) {
        Grants g = new Grants(new TreeSet<>(), new TreeSet<>(), new TreeSet<>(), new ArrayList<>());
        List<Object> items = new ArrayList<>(policies instanceof List<?> ? list(policies) : policies == null ? List.of() : List.of(policies));
        for (int i = 0; i < items.size(); i++) {
            Object item = items.get(i);
            if (item instanceof SamTemplate.Intrinsic(String fn, Object arg) && fn.equals("If")) {
                // A conditional policy may apply: count what either branch grants.
                List<Object> branches = list(arg);
                items.addAll(branches.subList(Math.min(1, branches.size()), branches.size()));
                continue;
            }
            if (item instanceof String) {
                continue; // a managed policy by name (e.g. AWSLambdaVPCAccessExecutionRole)
            }
            Map<String, Object> policy = map(item);
            policy.forEach((name, value) -> {
                Set<String> refs = new LinkedHashSet<>();
                collectReferences(value, refs);
                if (name.startsWith("DynamoDB")) {
                    g.tables().addAll(intersect(refs, tableIds));
                } else if (name.equals("LambdaInvokePolicy")) {
                    g.functions().addAll(intersect(refs, functionIds));
                } else if (name.startsWith("AWSSecretsManager") || name.startsWith("SSMParameter")) {
                    g.secrets().addAll(intersect(refs, secretIds));
                } else if (name.equals("Statement")) {
                    statements(value, g, tableIds, functionIds, secretIds);
                }
            });
        }
        return g;
    }

    /**
     * A role written out in the template, as SAM Policies items ({@code {Statement: [...]}}): its inline policies and
     * the managed policies of the template it attaches (AWS's own managed policies grant nothing this check counts).
     */
    private List<Object> rolePolicies(String id, Object role) {
        Set<String> refs = new LinkedHashSet<>();
        collectReferences(role, refs);
        Map<String, Map<String, Object>> roles = template.resourcesOfType("AWS::IAM::Role");
        Map<String, Map<String, Object>> managed = template.resourcesOfType("AWS::IAM::ManagedPolicy");
        List<Object> out = new ArrayList<>();
        for (String roleId : refs) {
            if (!roles.containsKey(roleId)) {
                problems.add(id + ": its Role " + roleId + " is not a role of the template");
                continue;
            }
            Map<String, Object> props = map(roles.get(roleId).get("Properties"));
            for (Object inline : eitherBranch(props.get("Policies"))) {
                out.add(Map.of("Statement", map(map(inline).get("PolicyDocument")).getOrDefault("Statement", List.of())));
            }
            for (Object arn : eitherBranch(props.get("ManagedPolicyArns"))) {
                Set<String> named = new LinkedHashSet<>();
                collectReferences(arn, named);
                named.retainAll(managed.keySet());
                for (String policy : named) {
                    Map<String, Object> document = map(map(managed.get(policy).get("Properties")).get("PolicyDocument"));
                    out.add(Map.of("Statement", document.getOrDefault("Statement", List.of())));
                }
            }
        }
        return out;
    }

    /** The items of a list, with each {@code !If} item replaced by what either of its branches holds. */
    private static List<Object> eitherBranch(Object items) {
        List<Object> out = new ArrayList<>();
        for (Object item : items instanceof List<?> ? list(items) : items == null ? List.of() : List.of(items)) {
            if (item instanceof SamTemplate.Intrinsic(String fn, Object arg) && fn.equals("If")) {
                List<Object> branches = list(arg);
                out.addAll(eitherBranch(branches.subList(Math.min(1, branches.size()), branches.size())));
            } else if (!(item instanceof SamTemplate.Intrinsic(String fn, Object arg) && fn.equals("Ref") && "AWS::NoValue".equals(arg))) {
                out.add(item);
            }
        }
        return out;
    }

    private void statements(Object value, Grants g, Set<String> tableIds, Set<String> functionIds, Set<String> secretIds) {
        for (Object s : eitherBranch(value)) {
            Map<String, Object> statement = map(s);
            if (!"Allow".equals(statement.getOrDefault("Effect", "Allow"))) {
                continue;
            }
            List<Object> actions = statement.get("Action") instanceof List<?> ? list(statement.get("Action")) : List.of(String.valueOf(statement.get("Action")));
            List<Object> resources = statement.get("Resource") instanceof List<?> ? list(statement.get("Resource")) : List.of(statement.get("Resource"));
            Set<String> refs = new LinkedHashSet<>();
            collectReferences(resources, refs);
            for (Object a : actions) {
                String action = String.valueOf(a).toLowerCase(Locale.ROOT);
                boolean wildcard = resources.stream().anyMatch("*"::equals);
                if (action.startsWith("dynamodb:")) {
                    g.tables().addAll(intersect(refs, tableIds));
                } else if (action.startsWith("lambda:invoke")) {
                    g.functions().addAll(intersect(refs, functionIds));
                } else if (action.startsWith("secretsmanager:") || action.startsWith("ssm:") || action.startsWith("kms:decrypt")) {
                    g.secrets().addAll(intersect(refs, secretIds));
                } else {
                    continue;
                }
                if (wildcard || action.endsWith(":*")) {
                    g.wildcards().add(String.valueOf(a));
                }
            }
        }
    }

    /** Logical ids and parameters named in intrinsics ({@code !Ref X}, {@code !GetAtt X.Arn}, {@code !Sub '${X}'}). */
    static void collectReferences(Object value, Set<String> out) {
        switch (value) {
            case SamTemplate.Intrinsic(String fn, Object arg) -> {
                switch (fn) {
                    case "Ref" -> {
                        String name = String.valueOf(arg);
                        out.add(name.contains(".") ? name.substring(0, name.indexOf('.')) : name);
                    }
                    case "GetAtt" -> {
                        String target = arg instanceof List<?> l ? String.valueOf(l.getFirst()) : String.valueOf(arg);
                        out.add(target.contains(".") ? target.substring(0, target.indexOf('.')) : target);
                    }
                    case "Sub" -> {
                        Object text = arg instanceof List<?> l ? l.getFirst() : arg;
                        Matcher m = Pattern.compile("\\$\\{([A-Za-z0-9]+)(?:\\.[A-Za-z0-9.]+)?}").matcher(String.valueOf(text));
                        while (m.find()) {
                            out.add(m.group(1));
                        }
                        if (arg instanceof List<?> l && l.size() > 1) {
                            collectReferences(l.get(1), out);
                        }
                    }
                    default -> collectReferences(arg, out);
                }
            }
            case Map<?, ?> m -> m.values().forEach(v -> collectReferences(v, out));
            case List<?> l -> l.forEach(v -> collectReferences(v, out));
            case null, default -> { }
        }
    }

    private static Set<String> intersect(Set<String> a, Set<String> b) {
        Set<String> out = new TreeSet<>(a);
        out.retainAll(b);
        return out;
    }
}
