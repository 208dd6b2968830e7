package dev.tablewright.fakes.runtime;

import java.nio.charset.StandardCharsets;

/** One HTTP chunk of a streamed response as the emulator received it, stamped with {@link System#nanoTime()}. */
public record Chunk(byte[] bytes, long arrivedNanos) {

    public String text() {
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
