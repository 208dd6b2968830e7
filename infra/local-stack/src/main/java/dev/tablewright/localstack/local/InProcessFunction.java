package dev.tablewright.localstack.local;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.agent.toolcall.EnvelopeToolInvoker;
import dev.tablewright.fakes.tools.InProcessToolInvoker;
import dev.tablewright.lambda.streaming.StreamingHandler;
import dev.tablewright.http.stream.HttpResponseStream;
import dev.tablewright.fakes.template.SamTemplate;
import dev.tablewright.json.Json;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;

/**
 * One function of template.yaml, run in this JVM: the handler class named by its {@code Handler} is created once
 * (like a warm execution environment: its constructor is the init phase) and invoked with JSON events.
 * Handlers of three shapes: {@link RequestHandler} (the event converted to its input type with Jackson, as the
 * Java runtime does), {@link RequestStreamHandler}, and the streamed functions' {@link StreamingHandler} (chat, MCP).
 */
public final class InProcessFunction {

    private final String logicalId;
    private final String handlerClassName;
    private final int memoryMb;
    private final int timeoutSeconds;
    private volatile Object instance;

    public InProcessFunction(String logicalId, String handler, int memoryMb, int timeoutSeconds) {
        this.logicalId = logicalId;
        this.handlerClassName = handler.contains("::") ? handler.substring(0, handler.indexOf("::")) : handler;
        this.memoryMb = memoryMb;
        this.timeoutSeconds = timeoutSeconds;
    }

    /** A function whose handler was built by the caller (the local stack wires the chat function's parts itself). */
    public static InProcessFunction ofInstance(String logicalId, Object handler) {
        InProcessFunction f = new InProcessFunction(logicalId, handler.getClass().getName(), 1024, 900);
        f.instance = handler;
        return f;
    }

    /** The function as template.yaml declares it (handler, memory, timeout, with Globals applied). */
    public static InProcessFunction fromTemplate(SamTemplate template, String logicalId) {
        var props = template.functionProperties(logicalId);
        Object handler = props.get("Handler");
        if (!(handler instanceof String h)) {
            throw new IllegalArgumentException(logicalId + " has no Handler in template.yaml");
        }
        return new InProcessFunction(logicalId, h,
                intOr(props.get("MemorySize"), 1024), intOr(props.get("Timeout"), 30));
    }

    public String logicalId() {
        return logicalId;
    }

    public String handlerClassName() {
        return handlerClassName;
    }

    public Context newContext() {
        return LocalLambdaContext.fresh(logicalId, memoryMb, timeoutSeconds, System.out);
    }

    /** Invokes a request/response handler with a JSON event and answers its JSON result. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public JsonNode invoke(JsonNode event) throws Exception {
        Object handler = instance();
        Context context = newContext();
        if (handler instanceof RequestStreamHandler streaming) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            streaming.handleRequest(new ByteArrayInputStream(Json.MAPPER.writeValueAsBytes(event)), out, context);
            return out.size() == 0 ? null : Json.MAPPER.readTree(out.toByteArray());
        }
        if (handler instanceof RequestHandler requestHandler) {
            JavaType inputType = Json.MAPPER.getTypeFactory().constructType(inputType(handler.getClass()));
            Object input = Json.MAPPER.convertValue(event, inputType);
            Object output = requestHandler.handleRequest(input, context);
            return Json.MAPPER.valueToTree(output);
        }
        throw new IllegalStateException(handlerClassName + " is not a RequestHandler or RequestStreamHandler");
    }

    /**
     * This function as the runner of a tool under the invoker contract: in this JVM nothing stands between the chat
     * and the function, so whatever its handler throws is a function error.
     */
    public InProcessToolInvoker.Runner asToolRunner() {
        return envelope -> {
            try {
                return invoke(envelope);
            } catch (Exception e) {
                throw new EnvelopeToolInvoker.FunctionFailed(logicalId + " failed", e);
            }
        };
    }

    /** Invokes a response-streaming function (chat, MCP) with a function URL event. */
    public void stream(JsonNode functionUrlEvent, HttpResponseStream response) throws Exception {
        if (!(instance() instanceof StreamingHandler handler)) {
            throw new IllegalStateException(handlerClassName + " is not a StreamingHandler");
        }
        handler.handle(functionUrlEvent, response);
    }

    /** Creates the handler now (the init phase), so the first request does not pay for it. */
    public Object instance() throws ReflectiveOperationException {
        Object current = instance;
        if (current == null) {
            synchronized (this) {
                current = instance;
                if (current == null) {
                    current = Class.forName(handlerClassName).getDeclaredConstructor().newInstance();
                    instance = current;
                }
            }
        }
        return current;
    }

    private static Type inputType(Class<?> type) {
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            for (Type iface : c.getGenericInterfaces()) {
                if (iface instanceof ParameterizedType p && p.getRawType() == RequestHandler.class) {
                    return p.getActualTypeArguments()[0];
                }
            }
            if (c.getGenericSuperclass() instanceof ParameterizedType p
                    && p.getRawType() instanceof Class<?> raw && RequestHandler.class.isAssignableFrom(raw)) {
                Type[] args = p.getActualTypeArguments();
                if (args.length > 0 && !(args[0] instanceof java.lang.reflect.TypeVariable<?>)) {
                    return args[0];
                }
            }
        }
        return JsonNode.class;
    }

    private static int intOr(Object value, int fallback) {
        return value instanceof Number n ? n.intValue() : fallback;
    }
}
