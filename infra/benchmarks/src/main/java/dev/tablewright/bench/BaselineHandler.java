package dev.tablewright.bench;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/** The emptiest Java function (no Jackson, no domain): ColdStart's floor for the JVM and the Runtime Interface Client. */
public final class BaselineHandler implements RequestStreamHandler {

    @Override
    public void handleRequest(InputStream input, OutputStream output, Context context) throws IOException {
        input.transferTo(OutputStream.nullOutputStream());
        output.write("{\"status\":\"ok\"}".getBytes(StandardCharsets.UTF_8));
    }
}
