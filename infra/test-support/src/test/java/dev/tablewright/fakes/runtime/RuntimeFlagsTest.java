package dev.tablewright.fakes.runtime;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The JVM flags of the emulated bootstrap follow the template's runtime: {@code java25} stops tiered compilation at
 * C1 on an on-demand start and not for a SnapStart init; {@code java21} leaves it to {@code JAVA_TOOL_OPTIONS}.
 */
class RuntimeFlagsTest {

    static FunctionSpec on(String runtime) {
        return new FunctionSpec("UppercaseFunction", UppercaseHandler.class.getName() + "::handleRequest", runtime, 256, 10,
                Map.of(), "dev-fakes", Path.of("target/test-classes"));
    }

    static boolean capsAtC1(List<String> command) {
        return command.contains("-XX:TieredStopAtLevel=1");
    }

    @Test
    void java25StopsAtC1OnAnOnDemandStartOnly() {
        assertTrue(capsAtC1(FunctionProcess.javaCommand(on("java25"), Path.of("task"), null)));
        assertFalse(capsAtC1(FunctionProcess.javaCommand(on("java25"), Path.of("task"), "snap-start")));
        assertFalse(capsAtC1(FunctionProcess.javaCommand(on("java25"), Path.of("task"), "provisioned-concurrency")));
    }

    @Test
    void java21LeavesTheCompilerToTheFunctionsOptions() {
        assertFalse(capsAtC1(FunctionProcess.javaCommand(on("java21"), Path.of("task"), null)));
    }
}
