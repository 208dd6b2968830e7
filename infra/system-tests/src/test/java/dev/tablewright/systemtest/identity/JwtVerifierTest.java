package dev.tablewright.systemtest.identity;

import dev.tablewright.fakes.identity.DevIssuer;

import com.sun.net.httpserver.HttpServer;
import dev.tablewright.jwt.JwtVerifier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The chat function's JWT check against the real development issuer over HTTP. */
class JwtVerifierTest {

    private HttpServer server;
    private DevIssuer issuer;
    private final AtomicInteger keyFetches = new AtomicInteger();

    @BeforeEach
    void startIssuer() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        issuer = new DevIssuer("http://127.0.0.1:" + server.getAddress().getPort() + DevIssuer.CONTEXT_PATH,
                DevIssuer.DEV_AUDIENCE);
        server.createContext(DevIssuer.CONTEXT_PATH, exchange -> {
            if (exchange.getRequestURI().getPath().endsWith("jwks.json")) {
                keyFetches.incrementAndGet();
            }
            issuer.handle(exchange);
        });
        server.start();
    }

    @AfterEach
    void stopIssuer() {
        server.stop(0);
    }

    private JwtVerifier verifierByDiscovery() {
        return new JwtVerifier(issuer.issuer(), Set.of(DevIssuer.DEV_AUDIENCE), null);
    }

    @Test
    void aValidTokenGivesItsSubjectAndClaimsAsStrings() throws Exception {
        JwtVerifier.Caller caller = verifierByDiscovery().verifyAuthorization("Bearer " + issuer.mint("dev-user"));
        assertEquals("dev-user", caller.userId());
        assertEquals(issuer.issuer(), caller.claims().get("iss"));
        assertEquals("dev-user", caller.claims().get("sub"));
        assertTrue(caller.claims().get("exp").matches("\\d+"), caller.claims().toString());
    }

    @Test
    void theKeySetIsFetchedOnceForManyTokens() throws Exception {
        JwtVerifier verifier = new JwtVerifier(issuer.issuer(), Set.of(DevIssuer.DEV_AUDIENCE), issuer.jwksUrl());
        for (int i = 0; i < 20; i++) {
            assertEquals("u" + i, verifier.verify(issuer.mint("u" + i)).userId());
        }
        assertEquals(1, keyFetches.get());
    }

    @Test
    void anExpiredTokenIsRejected() {
        JwtVerifier verifier = verifierByDiscovery();
        assertThrows(JwtVerifier.Rejected.class, () -> verifier.verify(issuer.mintExpired("dev-user", Duration.ofMinutes(10))));
    }

    @Test
    void aTokenForAnotherAudienceIsRejected() {
        JwtVerifier verifier = verifierByDiscovery();
        assertThrows(JwtVerifier.Rejected.class, () -> verifier.verify(issuer.mintForAudience("dev-user", "someone-else")));
    }

    @Test
    void aForgedSignatureIsRejected() {
        JwtVerifier verifier = verifierByDiscovery();
        assertThrows(JwtVerifier.Rejected.class, () -> verifier.verify(issuer.mintForged("dev-user")));
    }

    @Test
    void aTokenFromAnotherIssuerIsRejected() throws IOException {
        try (DevIssuer.Standalone other = DevIssuer.startStandalone()) {
            JwtVerifier verifier = new JwtVerifier(issuer.issuer(), Set.of(DevIssuer.DEV_AUDIENCE), issuer.jwksUrl());
            assertThrows(JwtVerifier.Rejected.class, () -> verifier.verify(other.issuer().mint("dev-user")));
        }
    }

    @Test
    void missingMalformedAndUnsignedTokensAreRejected() {
        JwtVerifier verifier = verifierByDiscovery();
        assertThrows(JwtVerifier.Rejected.class, () -> verifier.verifyAuthorization(null));
        assertThrows(JwtVerifier.Rejected.class, () -> verifier.verifyAuthorization("Basic abc"));
        assertThrows(JwtVerifier.Rejected.class, () -> verifier.verifyAuthorization("Bearer not.a.jwt"));
        // alg "none": header {"alg":"none"}, body {"sub":"dev-user"}
        assertThrows(JwtVerifier.Rejected.class, () -> verifier.verify("eyJhbGciOiJub25lIn0.eyJzdWIiOiJkZXYtdXNlciJ9."));
    }

    @Test
    void anUnreachableIssuerRejectsWithoutThrowingAnythingElse() {
        JwtVerifier verifier = new JwtVerifier("http://127.0.0.1:1/nowhere", Set.of("a"), null);
        assertThrows(JwtVerifier.Rejected.class, () -> verifier.verify(issuer.mint("dev-user")));
    }
}
