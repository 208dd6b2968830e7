package dev.tablewright.fakes.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/** Line-level HTTP/1.1 framing shared by the server and the test clients: CRLF lines and header blocks. */
public final class HttpLines {

    private static final int MAX_LINE = 64 * 1024;

    private HttpLines() {
    }

    /** One line without its CRLF (a bare LF is tolerated); null at end of stream before any byte. */
    public static String readLine(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream(64);
        int b;
        while ((b = in.read()) >= 0) {
            if (b == '\n') {
                byte[] bytes = line.toByteArray();
                int length = bytes.length > 0 && bytes[bytes.length - 1] == '\r' ? bytes.length - 1 : bytes.length;
                return new String(bytes, 0, length, StandardCharsets.ISO_8859_1);
            }
            if (line.size() >= MAX_LINE) {
                throw new IOException("header line longer than " + MAX_LINE + " bytes");
            }
            line.write(b);
        }
        if (line.size() == 0) {
            return null;
        }
        throw new IOException("connection closed inside a line");
    }

    /** Reads header lines up to the empty line into {@code into} (repeated names are joined with ", "). */
    public static void readHeaders(InputStream in, Map<String, String> into) throws IOException {
        for (String line = readLine(in); ; line = readLine(in)) {
            if (line == null) {
                throw new IOException("connection closed inside a header block");
            }
            if (line.isEmpty()) {
                return;
            }
            int colon = line.indexOf(':');
            if (colon <= 0) {
                throw new IOException("malformed header line: " + line);
            }
            String name = line.substring(0, colon).trim();
            String value = line.substring(colon + 1).trim();
            into.merge(name, value, (a, b) -> a + ", " + b);
        }
    }

    public static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.ISO_8859_1);
    }
}
