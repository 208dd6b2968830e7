package dev.tablewright.fakes.runtime;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * A managed-runtime handler for the harness's own test, run by the Runtime Interface Client from the test
 * classes directory: echoes the event upper-cased, fails on {@code "fail"}, and reports its request id.
 */
public class UppercaseHandler implements RequestStreamHandler {

    @Override
    public void handleRequest(InputStream input, OutputStream output, Context context) throws IOException {
        String event = new String(input.readAllBytes(), StandardCharsets.UTF_8);
        if (event.contains("fail")) {
            throw new IllegalArgumentException("asked to fail");
        }
        String answer = "{\"echo\":" + event.toUpperCase() + ",\"requestId\":\"" + context.getAwsRequestId()
                + "\",\"function\":\"" + context.getFunctionName() + "\",\"remainingMs\":" + context.getRemainingTimeInMillis() + "}";
        output.write(answer.getBytes(StandardCharsets.UTF_8));
    }
}
