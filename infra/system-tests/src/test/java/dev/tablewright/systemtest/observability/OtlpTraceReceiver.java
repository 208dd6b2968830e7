package dev.tablewright.systemtest.observability;

import dev.tablewright.fakes.http.LoopbackHttpServer;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A loopback OTLP/HTTP trace receiver: {@code POST /v1/traces} with an {@code ExportTraceServiceRequest} in protobuf,
 * answered 200. The spans are read with a few lines of protobuf wire decoding (the fields the tests look at), so no
 * protobuf library or generated OTLP classes are needed.
 */
final class OtlpTraceReceiver implements AutoCloseable {

    /** One received span: ids in hex, attributes as String, Long, Double, Boolean or List. */
    record ReceivedSpan(String name, String traceId, String spanId, String parentSpanId, Map<String, Object> attributes) {
    }

    private final LoopbackHttpServer server;
    final List<ReceivedSpan> spans = new CopyOnWriteArrayList<>();
    final List<String> paths = new CopyOnWriteArrayList<>();

    OtlpTraceReceiver() throws IOException {
        server = LoopbackHttpServer.start(0, "otlp-receiver", (request, response) -> {
            paths.add(request.path());
            spans.addAll(decode(request.body()));
            response.send(200, Map.of("content-type", "application/x-protobuf"), new byte[0]);
        });
    }

    String endpoint() {
        return "http://" + server.hostAndPort();
    }

    @Override
    public void close() {
        server.close();
    }

    // ---- protobuf wire format: ExportTraceServiceRequest{1: ResourceSpans{2: ScopeSpans{2: Span}}} ----

    static List<ReceivedSpan> decode(byte[] request) {
        List<ReceivedSpan> out = new ArrayList<>();
        for (Object resourceSpans : fields(request).getOrDefault(1, List.of())) {
            for (Object scopeSpans : fields((byte[]) resourceSpans).getOrDefault(2, List.of())) {
                for (Object span : fields((byte[]) scopeSpans).getOrDefault(2, List.of())) {
                    out.add(span((byte[]) span));
                }
            }
        }
        return out;
    }

    private static ReceivedSpan span(byte[] bytes) {
        Map<Integer, List<Object>> f = fields(bytes);
        Map<String, Object> attributes = new LinkedHashMap<>();
        for (Object kv : f.getOrDefault(9, List.of())) {
            Map<Integer, List<Object>> pair = fields((byte[]) kv);
            attributes.put(text(pair.get(1).getFirst()), value((byte[]) pair.get(2).getFirst()));
        }
        return new ReceivedSpan(text(f.get(5).getFirst()), hex(f.get(1)), hex(f.get(2)), hex(f.get(4)), attributes);
    }

    /** AnyValue: 1 string, 2 bool, 3 int, 4 double, 5 array of AnyValue. */
    private static Object value(byte[] bytes) {
        Map<Integer, List<Object>> f = fields(bytes);
        if (f.containsKey(1)) {
            return text(f.get(1).getFirst());
        }
        if (f.containsKey(2)) {
            return ((Long) f.get(2).getFirst()) != 0;
        }
        if (f.containsKey(3)) {
            return f.get(3).getFirst();
        }
        if (f.containsKey(4)) {
            return Double.longBitsToDouble((Long) f.get(4).getFirst());
        }
        List<Object> values = new ArrayList<>();
        if (f.containsKey(5)) {
            for (Object v : fields((byte[]) f.get(5).getFirst()).getOrDefault(1, List.of())) {
                values.add(value((byte[]) v));
            }
        }
        return values;
    }

    private static String text(Object bytes) {
        return new String((byte[]) bytes, StandardCharsets.UTF_8);
    }

    private static String hex(List<Object> value) {
        return value == null ? "" : HexFormat.of().formatHex((byte[]) value.getFirst());
    }

    /** Field number → values: varints and fixed numbers as Long, length-delimited fields as byte[]. */
    static Map<Integer, List<Object>> fields(byte[] bytes) {
        Map<Integer, List<Object>> out = new LinkedHashMap<>();
        ByteBuffer in = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        while (in.hasRemaining()) {
            long key = varint(in);
            int field = (int) (key >>> 3);
            Object value = switch ((int) (key & 7)) {
                case 0 -> varint(in);
                case 1 -> in.getLong();
                case 2 -> {
                    byte[] b = new byte[(int) varint(in)];
                    in.get(b);
                    yield b;
                }
                case 5 -> (long) in.getInt();
                default -> throw new IllegalStateException("unexpected protobuf wire type " + (key & 7));
            };
            out.computeIfAbsent(field, k -> new ArrayList<>()).add(value);
        }
        return out;
    }

    private static long varint(ByteBuffer in) {
        long value = 0;
        for (int shift = 0; ; shift += 7) {
            byte b = in.get();
            value |= (long) (b & 0x7f) << shift;
            if ((b & 0x80) == 0) {
                return value;
            }
        }
    }
}
