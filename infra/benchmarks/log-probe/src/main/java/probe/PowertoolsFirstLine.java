package probe;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.lang.management.ManagementFactory;

/** The first JSON log line through Powertools logging (SLF4J, Log4j2, its Lambda JSON layout), timed from main(). */
public final class PowertoolsFirstLine {
    public static void main(String[] args) {
        long start = System.nanoTime();
        Logger log = LoggerFactory.getLogger(PowertoolsFirstLine.class);
        log.info("tool answered {}", "ok");
        System.out.flush();
        System.err.printf("%.1f %d%n", (System.nanoTime() - start) / 1e6,
                ManagementFactory.getClassLoadingMXBean().getTotalLoadedClassCount());
    }
}
