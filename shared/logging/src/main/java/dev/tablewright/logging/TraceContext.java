package dev.tablewright.logging;

import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A W3C trace context ({@code traceparent}: version, 32-hex trace id, 16-hex parent span id, flags): what ties one
 * chat turn's log lines to those of the tool invocations it made. The chat turn starts one (from Lambda's X-Ray
 * trace header where there is one, so the ids match X-Ray's; otherwise a new one) and sends a child of it in every
 * tool invocation envelope; the tool function continues it. Each log line of the thread carries its {@code traceId}.
 */
public record TraceContext(String traceId, String spanId, boolean sampled) {

    private static final Pattern TRACEPARENT = Pattern.compile("00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})");
    private static final Pattern XRAY_ROOT = Pattern.compile("1-([0-9a-fA-F]{8})-([0-9a-fA-F]{24})");
    private static final String ZERO_TRACE = "0".repeat(32);
    private static final String ZERO_SPAN = "0".repeat(16);
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final ThreadLocal<TraceContext> CURRENT = new ThreadLocal<>();

    public String traceparent() {
        return "00-" + traceId + "-" + spanId + (sampled ? "-01" : "-00");
    }

    /** The same trace, a new span id: what a call made from this context carries. */
    public TraceContext child() {
        return new TraceContext(traceId, randomHex(8, ZERO_SPAN), sampled);
    }

    /** A traceparent header; empty when it is absent or malformed (a bad header starts a new trace, never fails a call). */
    public static Optional<TraceContext> parse(String traceparent) {
        if (traceparent == null) {
            return Optional.empty();
        }
        var m = TRACEPARENT.matcher(traceparent.strip().toLowerCase(Locale.ROOT));
        if (!m.matches() || m.group(1).equals(ZERO_TRACE) || m.group(2).equals(ZERO_SPAN)) {
            return Optional.empty();
        }
        return Optional.of(new TraceContext(m.group(1), m.group(2), (Integer.parseInt(m.group(3), 16) & 1) == 1));
    }

    /**
     * Lambda's X-Ray trace header ({@code Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1}):
     * the W3C trace id is the Root's two hex parts joined, as X-Ray's own OTLP mapping does. Empty without a Root.
     */
    public static Optional<TraceContext> fromXRayHeader(String header) {
        if (header == null) {
            return Optional.empty();
        }
        String root = null;
        String parent = null;
        boolean sampled = false;
        for (String part : header.split(";")) {
            int eq = part.indexOf('=');
            if (eq < 0) {
                continue;
            }
            String key = part.substring(0, eq).strip();
            String value = part.substring(eq + 1).strip();
            switch (key) {
                case "Root" -> root = value;
                case "Parent" -> parent = value;
                case "Sampled" -> sampled = value.equals("1");
                default -> { }
            }
        }
        var m = root == null ? null : XRAY_ROOT.matcher(root);
        if (m == null || !m.matches()) {
            return Optional.empty();
        }
        String traceId = (m.group(1) + m.group(2)).toLowerCase(Locale.ROOT);
        String spanId = parent != null && parent.matches("[0-9a-fA-F]{16}") && !parent.equals(ZERO_SPAN)
                ? parent.toLowerCase(Locale.ROOT) : randomHex(8, ZERO_SPAN);
        return Optional.of(new TraceContext(traceId, spanId, sampled));
    }

    /** A new trace (sampled: nothing downstream should drop it for want of a decision). */
    public static TraceContext generate() {
        return new TraceContext(randomHex(16, ZERO_TRACE), randomHex(8, ZERO_SPAN), true);
    }

    /**
     * The trace of a Lambda invocation: the X-Ray header the Runtime API gave it ({@code runtimeHeader}), else the one
     * the runtime left in the system property or {@code _X_AMZN_TRACE_ID}; a new trace when there is none (local).
     */
    public static TraceContext forInvocation(String runtimeHeader) {
        return fromXRayHeader(runtimeHeader)
                .or(() -> fromXRayHeader(System.getProperty("com.amazonaws.xray.traceHeader")))
                .or(() -> fromXRayHeader(System.getenv("_X_AMZN_TRACE_ID")))
                .orElseGet(TraceContext::generate);
    }

    /** Makes {@code context} the thread's trace: its id goes on every log line until the log scope ends. */
    public static void begin(TraceContext context) {
        CURRENT.set(context);
        StructuredLog.put("traceId", context == null ? null : context.traceId());
    }

    /** The thread's trace, if a turn or a tool invocation began one. */
    public static Optional<TraceContext> current() {
        return Optional.ofNullable(CURRENT.get());
    }

    /** The traceparent a call made now carries: a child of the thread's trace; empty outside one. */
    public static Optional<String> outgoing() {
        return current().map(t -> t.child().traceparent());
    }

    static TraceContext currentOrNull() {
        return CURRENT.get();
    }

    static void restore(TraceContext context) {
        if (context == null) {
            CURRENT.remove();
        } else {
            CURRENT.set(context);
        }
    }

    private static String randomHex(int bytes, String zero) {
        byte[] b = new byte[bytes];
        String hex;
        do {
            RANDOM.nextBytes(b);
            hex = HexFormat.of().formatHex(b);
        } while (hex.equals(zero));
        return hex;
    }
}
