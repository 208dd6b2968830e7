package dev.tablewright.localstack.invoke;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import dev.tablewright.lambda.Env;

import java.util.LinkedHashMap;
import java.util.Map;

/** A RequestHandler (typed input) that answers its input and the environment it sees through Env. */
public final class EchoEnvironmentHandler implements RequestHandler<Map<String, Object>, Map<String, Object>> {

    @Override
    public Map<String, Object> handleRequest(Map<String, Object> input, Context context) {
        if ("fail".equals(input.get("do"))) {
            throw new IllegalArgumentException("asked to fail");
        }
        System.out.println("a log line on stdout must not reach the response");
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("input", input);
        out.put("stage", Env.get("STAGE"));
        out.put("table", Env.get("TABLE"));
        out.put("function", context.getFunctionName());
        out.put("memory", context.getMemoryLimitInMB());
        return out;
    }
}
