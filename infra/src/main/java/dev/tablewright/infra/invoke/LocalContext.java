package dev.tablewright.infra.invoke;

import com.amazonaws.services.lambda.runtime.ClientContext;
import com.amazonaws.services.lambda.runtime.CognitoIdentity;
import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.LambdaLogger;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.UUID;

/** The Lambda {@link Context} of a local invocation: a fresh request id, the function's memory and deadline. */
public final class LocalContext implements Context {

    private final String requestId = UUID.randomUUID().toString();
    private final String functionName;
    private final int memoryMb;
    private final long deadlineMillis;
    private final LambdaLogger logger;

    public LocalContext(String functionName, int memoryMb, int timeoutSeconds, PrintStream log) {
        this.functionName = functionName;
        this.memoryMb = memoryMb;
        this.deadlineMillis = System.currentTimeMillis() + timeoutSeconds * 1000L;
        this.logger = new LambdaLogger() {
            @Override
            public void log(String message) {
                log.println(message);
            }

            @Override
            public void log(byte[] message) {
                log.println(new String(message, StandardCharsets.UTF_8));
            }
        };
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
        return "arn:aws:lambda:us-east-1:000000000000:function:" + functionName;
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
        return memoryMb;
    }

    @Override
    public LambdaLogger getLogger() {
        return logger;
    }
}
