package dev.tablewright.fakes.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.json.Json;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A function URL's streamed answer ({@code application/vnd.awslambda.http-integration-response}): a JSON prelude
 * {@code {"statusCode":..,"headers":{..},"cookies":[..]}}, eight NUL bytes, then the body the client receives.
 */
public record HttpIntegrationResponse(int statusCode, Map<String, String> headers, List<String> cookies,
                                      byte[] body, int preludeLength) {

    public static final String CONTENT_TYPE = "application/vnd.awslambda.http-integration-response";
    private static final byte[] DELIMITER = new byte[8];

    /** Where the body starts in the raw stream, or -1 if the delimiter has not arrived yet. */
    public static int bodyOffset(byte[] raw) {
        for (int i = 0; i + DELIMITER.length <= raw.length; i++) {
            if (Arrays.equals(raw, i, i + DELIMITER.length, DELIMITER, 0, DELIMITER.length)) {
                return i + DELIMITER.length;
            }
        }
        return -1;
    }

    public static HttpIntegrationResponse parse(byte[] raw) throws IOException {
        int offset = bodyOffset(raw);
        if (offset < 0) {
            throw new IOException("no 8-NUL delimiter after the prelude");
        }
        JsonNode prelude = Json.MAPPER.readTree(new String(raw, 0, offset - DELIMITER.length, StandardCharsets.UTF_8));
        Map<String, String> headers = new LinkedHashMap<>();
        prelude.path("headers").properties().forEach(e -> headers.put(e.getKey(), e.getValue().asText()));
        List<String> cookies = prelude.path("cookies").valueStream().map(JsonNode::asText).toList();
        return new HttpIntegrationResponse(prelude.path("statusCode").asInt(200), headers, cookies,
                Arrays.copyOfRange(raw, offset, raw.length), offset);
    }

    public String bodyText() {
        return new String(body, StandardCharsets.UTF_8);
    }
}
