package dev.tablewright.jwt;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.fakes.identity.DevIssuer;
import dev.tablewright.json.Json;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The verifier against the development issuer, served on the loopback interface: discovery, JWKS, the claims (moved
 * here from infra/system-tests, which needs no whole stack for it).
 */
class JwtVerifierTest {

    private static DevIssuer.Standalone identity;
    private static JwtVerifier verifier;

    @BeforeAll
    static void start() throws Exception {
        identity = DevIssuer.startStandalone();
        // the issuer's first answers load its classes in this JVM: asked once here, so the verifier's 3 s read timeout
        // measures the verifier and not this test JVM's warm-up on a loaded machine
        HttpClient http = HttpClient.newHttpClient();
        for (String url : List.of(identity.issuer().issuer() + "/.well-known/openid-configuration", identity.issuer().jwksUrl())) {
            assertEquals(200, http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(60)).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode(), url);
        }
        verifier = new JwtVerifier(identity.issuer().issuer(), Set.of(DevIssuer.DEV_AUDIENCE), null); // by discovery
    }

    @AfterAll
    static void stop() {
        identity.close();
    }

    @Test
    void aTokenOfTheIssuerVerifiesToItsSubjectWithItsClaimsAsStrings() throws Exception {
        JwtVerifier.Caller caller = verifier.verifyAuthorization("Bearer " + identity.issuer().mint("user-7"));
        assertEquals("user-7", caller.userId());
        assertEquals("user-7", caller.claims().get("sub"));
        assertEquals(identity.issuer().issuer(), caller.claims().get("iss"));
        assertEquals("id", caller.claims().get("token_use"));
        assertTrue(caller.claims().get("exp").matches("\\d+"), caller.claims().toString());
    }

    @Test
    void expiredForeignAudienceForgedAndMissingTokensAreRejectedWithTheReason() {
        DevIssuer issuer = identity.issuer();
        assertTrue(rejection("Bearer " + issuer.mintExpired("u", Duration.ofMinutes(5))).contains("did not verify"));
        assertEquals("token audience is not accepted", rejection("Bearer " + issuer.mintForAudience("u", "someone-else")));
        assertTrue(rejection("Bearer " + issuer.mintForged("u")).contains("did not verify"));
        assertEquals("no bearer token", rejection(null));
        assertEquals("no bearer token", rejection("Basic dXNlcjpwYXNz"));
        assertEquals("token too long", rejection("Bearer " + "a".repeat(17 * 1024)));
    }

    @Test
    void malformedAndUnsignedTokensAreRejected() {
        assertThrows(JwtVerifier.Rejected.class, () -> verifier.verifyAuthorization("Bearer not.a.jwt"));
        // alg "none": header {"alg":"none"}, body {"sub":"dev-user"}
        assertThrows(JwtVerifier.Rejected.class, () -> verifier.verify("eyJhbGciOiJub25lIn0.eyJzdWIiOiJkZXYtdXNlciJ9."));
    }

    @Test
    void anUnreachableIssuerRejectsWithoutThrowingAnythingElse() {
        JwtVerifier unreachable = new JwtVerifier("http://127.0.0.1:1/nowhere", Set.of("a"), null);
        JwtVerifier.Rejected rejected = assertThrows(JwtVerifier.Rejected.class, () -> unreachable.verify(identity.issuer().mint("u")));
        assertTrue(rejected.getMessage().contains("discovery document could not be read"), rejected.getMessage());
    }

    @Test
    void anotherIssuersTokenDoesNotVerify() throws Exception {
        try (DevIssuer.Standalone other = DevIssuer.startStandalone()) {
            assertTrue(rejection("Bearer " + other.issuer().mint("u")).contains("did not verify"));
        }
    }

    @Test
    void theKeySetIsFetchedOnceForManyTokens() throws Exception {
        try (DevIssuer.Standalone own = DevIssuer.startStandalone()) {
            JwtVerifier direct = new JwtVerifier(own.issuer().issuer(), Set.of(DevIssuer.DEV_AUDIENCE), own.issuer().jwksUrl());
            for (int i = 0; i < 5; i++) {
                assertEquals("u" + i, direct.verify(own.issuer().mint("u" + i)).userId());
            }
            assertEquals(1, own.issuer().jwksFetches());
        }
    }

    @Test
    void aFunctionUrlEventsCallerIsItsVerifiedSubjectOrNull() {
        ObjectNode event = Json.object();
        event.putObject("headers").put("Authorization", "Bearer " + identity.issuer().mint("user-9"));
        assertEquals("user-9", verifier.userIdOf(event));
        ObjectNode anonymous = Json.object();
        anonymous.putObject("headers");
        assertNull(verifier.userIdOf(anonymous));
        assertNull(verifier.userIdOf(null));
    }

    @Test
    void bearerTokensAreReadCaseInsensitivelyAndTheEnvironmentIsRequired() {
        assertEquals(Optional.of("abc"), JwtVerifier.bearerToken("bearer  abc "));
        assertEquals(Optional.empty(), JwtVerifier.bearerToken("Bearer "));
        assertEquals(Optional.empty(), JwtVerifier.bearerToken("Token abc"));
        IllegalStateException missing = assertThrows(IllegalStateException.class,
                () -> JwtVerifier.fromEnvironment(Map.of("AUTH_ISSUER", "https://issuer.example")));
        assertTrue(missing.getMessage().contains("AUTH_AUDIENCE"), missing.getMessage());
        assertEquals("https://issuer.example", JwtVerifier.fromEnvironment(
                Map.of("AUTH_ISSUER", "https://issuer.example", "AUTH_AUDIENCE", "a, b")).issuer());
        assertThrows(IllegalArgumentException.class, () -> new JwtVerifier("", Set.of("a"), null));
    }

    @Test
    void primingVerifiesAThrowawayTokenWithoutAskingTheIssuer() {
        JwtVerifier unreachable = new JwtVerifier("https://issuer.invalid", Set.of("aud"), "http://127.0.0.1:1/jwks");
        assertEquals("priming", unreachable.prime().userId());
    }

    private static String rejection(String header) {
        return assertThrows(JwtVerifier.Rejected.class, () -> verifier.verifyAuthorization(header)).getMessage();
    }
}
