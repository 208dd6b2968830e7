package dev.tablewright.localstack.local;

import com.amazonaws.services.lambda.runtime.ClientContext;
import com.amazonaws.services.lambda.runtime.CognitoIdentity;
import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.LambdaLogger;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.UUID;

/**
 * The Lambda {@link Context} of an in-process invocation (the local gateway and {@code invoke}): a request id, the
 * function's name, memory and deadline; {@code log} is where the function's {@link LambdaLogger} writes.
 */
public record LocalLambdaContext(String requestId, String functionName, int memoryLimitMb, long deadlineMillis,
                                 PrintStream log) implements Context {

    /** A context with a fresh request id whose deadline is {@code timeoutSeconds} from now. */
    public static LocalLambdaContext fresh(String functionName, int memoryLimitMb, int timeoutSeconds, PrintStream log) {
        return new LocalLambdaContext(UUID.randomUUID().toString(), functionName, memoryLimitMb,
                System.currentTimeMillis() + timeoutSeconds * 1000L, log);
    }

    @Override
    public String getAwsRequestId() {
        return requestId;
    }

    @Override
    public String getLogGroupName() {
        return "/aws/lambda/" + functionName;
    }

    @Override
    public String getLogStreamName() {
        return "local";
    }

    @Override
    public String getFunctionName() {
        return functionName;
    }

    @Override
    public String getFunctionVersion() {
        return "$LATEST";
    }

    @Override
    public String getInvokedFunctionArn() {
        return "arn:aws:lambda:local:000000000000:function:" + functionName;
    }

    @Override
    public CognitoIdentity getIdentity() {
        return null;
    }

    @Override
    public ClientContext getClientContext() {
        return null;
    }

    @Override
    public int getRemainingTimeInMillis() {
        return (int) Math.max(0, deadlineMillis - System.currentTimeMillis());
    }

    @Override
    public int getMemoryLimitInMB() {
        return memoryLimitMb;
    }

    @Override
    public LambdaLogger getLogger() {
        return new LambdaLogger() {
            @Override
            public void log(String message) {
                log.print(message);
            }

            @Override
            public void log(byte[] message) {
                log.print(new String(message, StandardCharsets.UTF_8));
            }
        };
    }
}
