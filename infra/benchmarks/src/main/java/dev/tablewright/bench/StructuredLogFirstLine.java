package dev.tablewright.bench;

import dev.tablewright.logging.StructuredLog;

import java.lang.management.ManagementFactory;

/**
 * The first JSON log line through {@link StructuredLog}, timed from main() (the StructuredLog side of
 * infra/bin/log-first-line). Prints "millis loadedClasses" on stderr. {@code --jackson-warm} loads Jackson's
 * mapper first, as every handler does at init before it logs.
 */
public final class StructuredLogFirstLine {
    public static void main(String[] args) {
        if (args.length > 0 && args[0].equals("--jackson-warm")) {
            dev.tablewright.json.Json.MAPPER.createObjectNode();
        }
        long start = System.nanoTime();
        StructuredLog.of(StructuredLogFirstLine.class).info("tool answered", "status", "ok");
        System.out.flush();
        System.err.printf("%.1f %d%n", (System.nanoTime() - start) / 1e6,
                ManagementFactory.getClassLoadingMXBean().getTotalLoadedClassCount());
    }
}
