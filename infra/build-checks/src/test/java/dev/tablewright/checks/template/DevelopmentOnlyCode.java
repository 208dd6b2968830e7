package dev.tablewright.checks.template;

import java.util.List;

/**
 * What no function's jar may hold, named in one place: the infra modules' code (fakes, local stack, benchmarks, build
 * checks, system tests), the test and benchmark libraries, and the test-only helpers that once lived in production
 * modules. {@link FunctionJarContentsTest} reads every function jar against it.
 */
final class DevelopmentOnlyCode {

    /** Entry prefixes (jar paths) of code that serves development only. */
    static final List<String> PREFIXES = List.of(
            // infra's modules: the development fakes, the local stack and terminal client, the benchmarks, the checks
            "dev/tablewright/fakes/", "dev/tablewright/localstack/", "dev/tablewright/bench/",
            "dev/tablewright/checks/", "dev/tablewright/systemtest/",
            // test, benchmark and stand-in libraries
            "org/junit/", "org/opentest4j/", "org/testcontainers/", "net/jqwik/", "com/tngtech/archunit/",
            "org/openjdk/jmh/", "com/amazonaws/services/dynamodbv2/local/", "io/zonky/", "org/yaml/snakeyaml/");

    /** Project classes that tests, benchmarks or the local stack use and no function does. */
    static final List<String> CLASSES = List.of(
            "dev/tablewright/agent/toolcall/InProcessToolInvoker", // now in the fakes: named so it never returns
            "dev/tablewright/lambda/HttpApiEventBuilder");

    private DevelopmentOnlyCode() {
    }

    /** Whether a jar entry is development-only code (a class of a named prefix, or one of the named classes). */
    static boolean matches(String entry) {
        if (PREFIXES.stream().anyMatch(entry::startsWith)) {
            return !entry.endsWith("/");
        }
        String className = entry.endsWith(".class") ? entry.substring(0, entry.length() - ".class".length()) : null;
        if (className == null) {
            return false;
        }
        String outer = className.contains("$") ? className.substring(0, className.indexOf('$')) : className;
        return CLASSES.contains(outer) || outer.endsWith("Test") || outer.endsWith("Tests");
    }
}
