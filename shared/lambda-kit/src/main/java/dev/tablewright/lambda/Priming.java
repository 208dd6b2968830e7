package dev.tablewright.lambda;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.json.Json;
import dev.tablewright.logging.StructuredLog;
import org.crac.Context;
import org.crac.Core;
import org.crac.Resource;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * SnapStart priming: work a handler registers at init runs once more just before Lambda takes the snapshot
 * ({@code beforeCheckpoint}), so the classes and JIT state of the hot path — Jackson's readers and writers, the
 * SDK client's marshallers, the handler's own decode/encode — are in the snapshot instead of being loaded by the
 * first request after every restore. Without SnapStart (locally, or {@code ApplyOn: None}) nothing runs.
 *
 * <p>A priming action must be side-effect free: no writes, no calls that change state anywhere.
 */
public final class Priming implements Resource {

    private static final StructuredLog LOG = StructuredLog.of(Priming.class);
    // org.crac's global context holds resources weakly: keep them here.
    private static final List<Priming> REGISTERED = new CopyOnWriteArrayList<>();

    private final String name;
    private final Runnable action;
    private final Runnable restored;

    private Priming(String name, Runnable action, Runnable restored) {
        this.name = name;
        this.action = action;
        this.restored = restored;
    }

    /** Runs {@code action} before the SnapStart snapshot (never on a JVM without CRaC). */
    public static void register(String name, Runnable action) {
        register(name, action, () -> { });
    }

    /** Also runs {@code restored} after a restore (e.g. to renew what must differ per environment). */
    public static void register(String name, Runnable action, Runnable restored) {
        Priming priming = new Priming(name, action, restored);
        REGISTERED.add(priming);
        Core.getGlobalContext().register(priming);
    }

    /** The JSON round trip every handler pays on its first request: parse, tree walk, write. */
    public static void primeJson(String sampleJson) {
        try {
            JsonNode tree = Json.MAPPER.readTree(sampleJson);
            Json.MAPPER.writeValueAsBytes(tree);
        } catch (Exception e) {
            throw new IllegalStateException("priming JSON failed", e);
        }
    }

    /**
     * Runs every registered hook before the snapshot, for a runtime loop of our own that serves SnapStart itself
     * (the managed runtime calls them through org.crac); a failed priming is logged, never thrown.
     */
    public static void beforeSnapshot() {
        REGISTERED.forEach(p -> p.beforeCheckpoint(null));
    }

    /** Runs every registered hook after a restore, in registration order; the first failure is thrown. */
    public static void afterRestore() {
        REGISTERED.forEach(p -> p.afterRestore(null));
    }

    /**
     * Runs every registered priming action now, as the checkpoint would, and answers the names of those that
     * failed (tests: every handler's priming runs cleanly without touching state).
     */
    public static List<String> primeAllNow() {
        List<String> failed = new java.util.ArrayList<>();
        for (Priming p : REGISTERED) {
            try {
                p.action.run();
            } catch (RuntimeException e) {
                failed.add(p.name + ": " + e);
            }
        }
        return failed;
    }

    @Override
    public void beforeCheckpoint(Context<? extends Resource> context) {
        long started = System.nanoTime();
        try {
            action.run();
            LOG.info("primed before snapshot", "priming", name, "millis", (System.nanoTime() - started) / 1_000_000);
        } catch (RuntimeException e) {
            // A failed priming only costs the first request its speed; never fail the snapshot for it.
            LOG.warn("priming failed", "priming", name, "errorType", e.getClass().getSimpleName());
        }
    }

    @Override
    public void afterRestore(Context<? extends Resource> context) {
        restored.run(); // most register nothing: clients reconnect on their own after a restore
    }
}
