package dev.tablewright.id;

import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

/** Where the ids of new things come from; injected, so a test (or another store) can choose them. */
@FunctionalInterface
public interface IdGenerator {

    /** A new id for something created at {@code now}. */
    String next(Instant now);

    /**
     * {@code <prefix>_} + the creation time (hex milliseconds, so listings by id come in creation order) + 32 random
     * bits, e.g. {@code cfg_0192f3a4b5c6d7e8f9a0}.
     */
    static IdGenerator timeOrdered(String prefix) {
        return now -> String.format("%s_%011x%08x", prefix, now.toEpochMilli(), ThreadLocalRandom.current().nextInt());
    }

    /** {@code <prefix>_} + 128 random bits in hex: an id that tells nothing, e.g. of a preview. */
    static IdGenerator random(String prefix) {
        return now -> prefix + "_" + UUID.randomUUID().toString().replace("-", "");
    }
}
