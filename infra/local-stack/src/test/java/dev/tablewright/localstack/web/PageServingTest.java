package dev.tablewright.localstack.web;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.localstack.local.InProcessFunction;
import dev.tablewright.localstack.local.LocalGateway;
import dev.tablewright.fakes.template.SamTemplate;
import dev.tablewright.json.Json;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The local gateway serves a built page beside the API: its files, its config.json, and for anything else (a
 * missing file, a path climbing out of the page's directory, an odd encoding) the plain JSON 404, never a file from
 * elsewhere and never a stack trace. Requests are written byte for byte, so no client normalises the paths first.
 */
class PageServingTest {

    @TempDir
    static Path site;
    private static LocalGateway gateway;

    @BeforeAll
    static void start() throws Exception {
        Path dist = Files.createDirectories(site.resolve("web/dist/assets"));
        Files.writeString(dist.resolve("../index.html"), "<html>page</html>");
        Files.writeString(dist.resolve("app.js"), "console.log('app')");
        Files.writeString(site.resolve("web/secret.txt"), "SECRET");
        SamTemplate template = SamTemplate.load(Path.of(PageServingTest.class.getResource("/local/gateway-template.yaml").toURI()));
        gateway = new LocalGateway(0).page(new StaticFiles(site.resolve("web/dist")), PageConfig.local());
        gateway.start(template, Map.of("EchoFunction", InProcessFunction.fromTemplate(template, "EchoFunction"),
                "StreamFunction", InProcessFunction.fromTemplate(template, "StreamFunction")));
    }

    @AfterAll
    static void stop() {
        gateway.close();
    }

    /** One raw request; the status line, the headers and the body as text. */
    private static String[] raw(String target) throws Exception {
        try (Socket socket = new Socket("127.0.0.1", gateway.port())) {
            OutputStream out = socket.getOutputStream();
            out.write(("GET " + target + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = socket.getInputStream();
            String response = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            int split = response.indexOf("\r\n\r\n");
            return new String[] {response.substring(0, response.indexOf("\r\n")), response.substring(0, split), response.substring(split + 4)};
        }
    }

    @Test
    void theIndexItsAssetsAndItsConfigAreServed() throws Exception {
        String[] index = raw("/");
        assertTrue(index[0].contains(" 200 "), index[0]);
        assertTrue(index[1].toLowerCase().contains("content-type: text/html"), index[1]);
        assertEquals("<html>page</html>", index[2]);
        String[] asset = raw("/assets/app.js");
        assertTrue(asset[0].contains(" 200 ") && asset[1].toLowerCase().contains("content-type: text/javascript"), asset[1]);
        JsonNode config = Json.parse(raw("/config.json")[2]);
        assertEquals("/chat", config.path("chatUrl").asText());
        assertEquals("/dev-issuer/token", config.path("tokenUrl").asText());
        assertEquals("", config.path("apiUrl").asText());
    }

    @Test
    void aBadPathIsAPlainJson404AndNeverReachesAFileOutsideThePage() throws Exception {
        List<String> failures = new ArrayList<>();
        for (String target : List.of("/missing.js", "/assets/", "/assets", "/../secret.txt", "/assets/../../secret.txt",
                "/%2e%2e/secret.txt", "/%2E%2E%2Fsecret.txt", "/..%5csecret.txt", "/index.html%00.js", "//etc/passwd",
                "/assets/%c0%ae%c0%ae/secret.txt", "/" + "a/".repeat(300))) {
            String[] r = raw(target);
            boolean plain = r[0].contains(" 404 ") || r[0].contains(" 400 ");
            boolean json = r[1].toLowerCase().contains("content-type: application/json");
            if (!plain || !json || r[2].contains("SECRET") || r[2].contains("Exception") || r[2].contains("\tat ")) {
                failures.add(target + " -> " + r[0] + " " + r[2]);
            }
        }
        assertEquals(List.of(), failures, String.join("\n", failures));
        assertEquals("{\"message\":\"Not Found\"}", raw("/missing.js")[2]);
    }

    @Test
    void onlyGetServesThePageAndApiRoutesStillWin() throws Exception {
        try (Socket socket = new Socket("127.0.0.1", gateway.port())) {
            socket.getOutputStream().write("POST / HTTP/1.1\r\nHost: localhost\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                    .getBytes(StandardCharsets.ISO_8859_1));
            String response = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(response.startsWith("HTTP/1.1 404"), response);
        }
        String[] route = raw("/things/1");
        assertTrue(route[0].contains(" 401 "), "an API route is still the API's: " + route[0]);
    }
}
