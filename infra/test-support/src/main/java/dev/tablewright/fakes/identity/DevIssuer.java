package dev.tablewright.fakes.identity;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import dev.tablewright.json.Json;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.Map;
import java.util.UUID;

/**
 * The development OIDC issuer of the local stack and the tests: one RSA key made at start-up, its public half
 * served as a JWKS with an OIDC discovery document, and tokens minted for any subject. It stands in for Cognito
 * (or any OIDC provider) so the JWT authorizer and the chat function's own verification run for real locally.
 *
 * <p>Documented identity (docs/configuration.md): issuer {@code http://localhost:3000/dev-issuer}, audience
 * {@value #DEV_AUDIENCE}, user {@value #DEV_USER}. The key lives only in memory: tokens of an earlier run no
 * longer verify after a restart.
 */
public final class DevIssuer implements HttpHandler {

    public static final String DEV_USER = "dev-user";
    public static final String DEV_AUDIENCE = "tablewright-local";
    public static final String CONTEXT_PATH = "/dev-issuer";
    public static final Duration DEFAULT_TTL = Duration.ofHours(12);

    private final String issuer;
    private final String audience;
    private final RSAKey key;

    /** @param issuer the issuer URL; the discovery document and JWKS are served under it */
    public DevIssuer(String issuer, String audience) {
        this.issuer = issuer.endsWith("/") ? issuer.substring(0, issuer.length() - 1) : issuer;
        this.audience = audience;
        try {
            this.key = new RSAKeyGenerator(2048).keyID("dev-" + UUID.randomUUID().toString().substring(0, 8)).generate();
        } catch (JOSEException e) {
            throw new IllegalStateException("could not generate the development RSA key", e);
        }
    }

    /** An issuer served at {@code http://localhost:<port>/dev-issuer} (mount it with {@link #mountOn}). */
    public static DevIssuer forPort(int port) {
        return new DevIssuer("http://localhost:" + port + CONTEXT_PATH, DEV_AUDIENCE);
    }

    public String issuer() {
        return issuer;
    }

    public String audience() {
        return audience;
    }

    private final java.util.concurrent.atomic.AtomicInteger jwksFetches = new java.util.concurrent.atomic.AtomicInteger();

    /** How many times the key set was fetched (a verifier caches it: once per verifier, normally). */
    public int jwksFetches() {
        return jwksFetches.get();
    }

    public String jwksUrl() {
        return issuer + "/.well-known/jwks.json";
    }

    /** Serves the discovery document and the JWKS on the given server under {@link #CONTEXT_PATH}. */
    public void mountOn(HttpServer server) {
        server.createContext(CONTEXT_PATH, this);
    }

    /** A token for the subject, valid for {@link #DEFAULT_TTL}. */
    public String mint(String subject) {
        return mint(subject, DEFAULT_TTL);
    }

    public String mint(String subject, Duration ttl) {
        Instant now = Instant.now();
        return sign(claims(subject, now, now.plus(ttl)).build(), key);
    }

    /** A token that expired {@code ago} ago (tests: expiry is checked). */
    public String mintExpired(String subject, Duration ago) {
        Instant expiry = Instant.now().minus(ago);
        return sign(claims(subject, expiry.minus(Duration.ofHours(1)), expiry).build(), key);
    }

    /** A token for another audience (tests). */
    public String mintForAudience(String subject, String otherAudience) {
        Instant now = Instant.now();
        return sign(claims(subject, now, now.plus(DEFAULT_TTL)).audience(otherAudience).build(), key);
    }

    /** A well-formed token with this issuer's claims and key id, signed by a different key (tests: forgery). */
    public String mintForged(String subject) {
        try {
            RSAKey forger = new RSAKeyGenerator(2048).keyID(key.getKeyID()).generate();
            Instant now = Instant.now();
            return sign(claims(subject, now, now.plus(DEFAULT_TTL)).build(), forger);
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
    }

    private JWTClaimsSet.Builder claims(String subject, Instant issuedAt, Instant expiry) {
        return new JWTClaimsSet.Builder()
                .issuer(issuer)
                .subject(subject)
                .audience(audience)
                .issueTime(Date.from(issuedAt))
                .expirationTime(Date.from(expiry))
                .jwtID(UUID.randomUUID().toString())
                .claim("token_use", "id")
                .claim("name", subject.equals(DEV_USER) ? "Development User" : subject);
    }

    private static String sign(JWTClaimsSet claims, RSAKey signingKey) {
        try {
            SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256)
                    .keyID(signingKey.getKeyID()).type(JOSEObjectType.JWT).build(), claims);
            jwt.sign(new RSASSASigner(signingKey));
            return jwt.serialize();
        } catch (JOSEException e) {
            throw new IllegalStateException("could not sign a development token", e);
        }
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getPath();
            String body;
            if (path.endsWith("/.well-known/jwks.json")) {
                jwksFetches.incrementAndGet();
                body = new JWKSet(key.toPublicJWK()).toString();
            } else if (path.endsWith("/.well-known/openid-configuration")) {
                body = Json.MAPPER.writeValueAsString(Map.of(
                        "issuer", issuer,
                        "jwks_uri", jwksUrl(),
                        "id_token_signing_alg_values_supported", new String[] {"RS256"},
                        "subject_types_supported", new String[] {"public"},
                        "response_types_supported", new String[] {"id_token"}));
            } else if (path.endsWith("/token") && exchange.getRequestMethod().equals("GET")) {
                // Development only (the local stack's loopback gateway): a token for ?sub=..., so the terminal
                // chat and scripts need no copy-paste. Nothing like it exists in a deployed stack.
                String query = exchange.getRequestURI().getQuery();
                String subject = query != null && query.startsWith("sub=")
                        ? java.net.URLDecoder.decode(query.substring(4), StandardCharsets.UTF_8) : DEV_USER;
                if (!subject.matches("[A-Za-z0-9_.@-]{1,64}")) {
                    exchange.sendResponseHeaders(400, -1);
                    return;
                }
                body = Json.MAPPER.writeValueAsString(Map.of("token", mint(subject), "sub", subject,
                        "expiresInSeconds", DEFAULT_TTL.toSeconds()));
            } else {
                exchange.sendResponseHeaders(404, -1);
                return;
            }
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
    }

    /** A stand-alone issuer on its own port (tests that need only identity). Stop the returned server when done. */
    public static Standalone startStandalone() throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        DevIssuer issuer = new DevIssuer("http://127.0.0.1:" + server.getAddress().getPort() + CONTEXT_PATH, DEV_AUDIENCE);
        issuer.mountOn(server);
        server.start();
        return new Standalone(issuer, server);
    }

    public record Standalone(DevIssuer issuer, HttpServer server) implements AutoCloseable {
        @Override
        public void close() {
            server.stop(0);
        }
    }
}
