package dev.tablewright.postgres;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.json.Json;

import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/**
 * Reads a Secrets Manager secret through the AWS Parameters and Secrets Lambda Extension (a layer): an HTTP GET on
 * localhost, authenticated with the function's session token. Chosen over the Secrets Manager SDK client because it
 * adds no dependency and no client start-up to the function (the SDK's secretsmanager module, its protocol and
 * signer classes cost cold-start time in every function that talks to the database), and the extension caches
 * the secret across invocations and instances' lifetimes. Secret values never reach a log or an exception message.
 */
public final class SecretsExtensionClient {

    private final String endpoint;
    private final String sessionToken;

    public SecretsExtensionClient(String endpoint, String sessionToken) {
        this.endpoint = endpoint;
        this.sessionToken = sessionToken;
    }

    /** The extension on its default port (or {@code PARAMETERS_SECRETS_EXTENSION_HTTP_PORT}), as Lambda runs it. */
    public static SecretsExtensionClient inLambda() {
        String port = System.getenv("PARAMETERS_SECRETS_EXTENSION_HTTP_PORT");
        return new SecretsExtensionClient("http://localhost:" + (port == null || port.isBlank() ? "2773" : port.trim()),
                System.getenv("AWS_SESSION_TOKEN"));
    }

    /** The secret's {@code SecretString}, parsed as JSON. */
    public JsonNode secretJson(String secretId) throws IOException {
        IOException last = null;
        for (int attempt = 0; attempt < 2; attempt++) {
            try {
                return Json.parse(fetch(secretId).path("SecretString").asText("{}"));
            } catch (java.net.ConnectException e) {
                last = e; // the extension may still be starting on the first invocation
                sleep();
            }
        }
        throw new IOException("the Parameters and Secrets extension is not reachable at " + endpoint
                + " (is the layer attached?)", last);
    }

    private JsonNode fetch(String secretId) throws IOException {
        URI uri = URI.create(endpoint + "/secretsmanager/get?secretId=" + URLEncoder.encode(secretId, StandardCharsets.UTF_8));
        HttpURLConnection c = (HttpURLConnection) uri.toURL().openConnection();
        c.setConnectTimeout(1000);
        c.setReadTimeout(5000);
        if (sessionToken != null) {
            c.setRequestProperty("X-Aws-Parameters-Secrets-Token", sessionToken);
        }
        int status = c.getResponseCode();
        if (status != 200) {
            c.disconnect();
            throw new IOException("the secrets extension answered HTTP " + status + " for secret " + secretId);
        }
        try (InputStream in = c.getInputStream()) {
            return Json.MAPPER.readTree(in);
        }
    }

    /** The RDS secret format: host, port, dbname, username, password. */
    public DatabaseUrl databaseUrl(String secretId) throws IOException {
        JsonNode s = secretJson(secretId);
        String host = s.path("host").asText(null);
        String user = s.path("username").asText(null);
        if (host == null || user == null) {
            throw new IOException("secret " + secretId + " lacks host or username (expected the RDS secret format)");
        }
        DatabaseUrl url = DatabaseUrl.of(host, s.path("port").asInt(5432), s.path("dbname").asText("postgres"), user,
                s.path("password").asText(null));
        return new DatabaseUrl(url.jdbcUrl() + "?sslmode=require", url.user(), url.password());
    }

    private static void sleep() {
        try {
            Thread.sleep(200);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
