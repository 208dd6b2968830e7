package dev.tablewright.jwt;


import com.fasterxml.jackson.databind.JsonNode;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.jwk.source.JWKSourceBuilder;
import com.nimbusds.jose.proc.DefaultJOSEObjectTypeVerifier;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jose.util.DefaultResourceRetriever;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.proc.DefaultJWTClaimsVerifier;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;
import dev.tablewright.json.Json;
import dev.tablewright.logging.StructuredLog;

import java.net.MalformedURLException;
import java.net.URI;
import java.net.URL;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Verifies a bearer JWT the way API Gateway's JWT authorizer does, for the one entry point that has no
 * authorizer in front of it (the chat function URL): signature against the issuer's JWKS (fetched once, cached,
 * refreshed when an unknown key id shows up), {@code iss} exactly the configured issuer, {@code aud} (or
 * Cognito's {@code client_id}) one of the configured audiences, {@code exp} required and in the future,
 * {@code nbf} honoured. The caller's identity is the verified {@code sub}, never anything from the request body.
 *
 * <p>Configuration: {@code AUTH_ISSUER} (e.g. {@code https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_abc}),
 * {@code AUTH_AUDIENCE} (comma-separated), and optionally {@code AUTH_JWKS_URL}; without it the JWKS address is
 * read from the issuer's OIDC discovery document, as API Gateway does.
 */
public final class JwtVerifier {

    /** A verified caller: the subject and the token's claims, rendered as API Gateway renders them (strings). */
    public record Caller(String userId, Map<String, String> claims) {
    }

    /** The token was missing or did not verify; the message says why, for logs (clients get a plain 401). */
    public static final class Rejected extends Exception {
        public Rejected(String message) {
            super(message);
        }
    }

    private static final StructuredLog LOG = StructuredLog.of(JwtVerifier.class);
    private static final Set<JWSAlgorithm> ALGORITHMS = Set.of(
            JWSAlgorithm.RS256, JWSAlgorithm.RS384, JWSAlgorithm.RS512,
            JWSAlgorithm.ES256, JWSAlgorithm.ES384, JWSAlgorithm.ES512);
    private static final int HTTP_TIMEOUT_MS = 3000;
    private static final int MAX_TOKEN_CHARS = 16 * 1024;

    private final String issuer;
    private final Set<String> audiences;
    private final String configuredJwksUrl;
    private volatile DefaultJWTProcessor<SecurityContext> processor;

    public JwtVerifier(String issuer, Set<String> audiences, String jwksUrl) {
        if (issuer == null || issuer.isBlank()) {
            throw new IllegalArgumentException("an issuer is required");
        }
        if (audiences == null || audiences.isEmpty()) {
            throw new IllegalArgumentException("at least one audience is required");
        }
        this.issuer = issuer;
        this.audiences = Set.copyOf(audiences);
        this.configuredJwksUrl = jwksUrl;
    }

    /** From {@code AUTH_ISSUER}, {@code AUTH_AUDIENCE} and the optional {@code AUTH_JWKS_URL}. */
    public static JwtVerifier fromEnvironment(Map<String, String> env) {
        String issuer = required(env, "AUTH_ISSUER");
        Set<String> audiences = Arrays.stream(required(env, "AUTH_AUDIENCE").split(","))
                .map(String::trim).filter(s -> !s.isEmpty()).collect(Collectors.toUnmodifiableSet());
        return new JwtVerifier(issuer, audiences, env.get("AUTH_JWKS_URL"));
    }

    private static String required(Map<String, String> env, String name) {
        String value = env.get(name);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException("environment variable " + name + " is not set");
        }
        return value;
    }

    public String issuer() {
        return issuer;
    }

    /** The token of an {@code Authorization: Bearer <token>} header value, if it has one. */
    public static Optional<String> bearerToken(String authorizationHeader) {
        if (authorizationHeader == null) {
            return Optional.empty();
        }
        String value = authorizationHeader.trim();
        if (value.length() > 7 && value.regionMatches(true, 0, "Bearer ", 0, 7)) {
            String token = value.substring(7).trim();
            return token.isEmpty() ? Optional.empty() : Optional.of(token);
        }
        return Optional.empty();
    }

    /**
     * The verified caller's id for a function URL (or HTTP API) event with an {@code authorization} header, or
     * null when the token is missing or does not verify (the reason is logged, never the token).
     */
    public String userIdOf(JsonNode event) {
        JsonNode headers = event == null ? null : event.path("headers");
        String header = null;
        if (headers != null && headers.isObject()) {
            for (var e : headers.properties()) {
                if (e.getKey().equalsIgnoreCase("authorization")) {
                    header = e.getValue().asText(null);
                }
            }
        }
        try {
            return verifyAuthorization(header).userId();
        } catch (Rejected e) {
            LOG.info("caller not authenticated", "reason", e.getMessage());
            return null;
        }
    }

    /** Verifies the value of an Authorization header. */
    public Caller verifyAuthorization(String authorizationHeader) throws Rejected {
        return verify(bearerToken(authorizationHeader).orElseThrow(() -> new Rejected("no bearer token")));
    }

    public Caller verify(String token) throws Rejected {
        if (token == null || token.isBlank()) {
            throw new Rejected("no bearer token");
        }
        if (token.length() > MAX_TOKEN_CHARS) {
            throw new Rejected("token too long");
        }
        JWTClaimsSet claims;
        try {
            claims = processor().process(token, null);
        } catch (Rejected e) {
            throw e;
        } catch (Exception e) {
            throw new Rejected("token did not verify: " + e.getMessage());
        }
        if (!acceptsAudience(claims)) {
            throw new Rejected("token audience is not accepted");
        }
        String subject = claims.getSubject();
        if (subject == null || subject.isBlank()) {
            throw new Rejected("token has no subject");
        }
        return new Caller(subject, renderClaims(claims));
    }

    private boolean acceptsAudience(JWTClaimsSet claims) {
        List<String> aud = claims.getAudience();
        if (aud != null && aud.stream().anyMatch(audiences::contains)) {
            return true;
        }
        Object clientId = claims.getClaim("client_id");
        return clientId instanceof String s && audiences.contains(s);
    }

    /** Claims as API Gateway's JWT authorizer passes them: every value a string, lists as "[a b]". */
    public static Map<String, String> renderClaims(JWTClaimsSet claims) {
        Map<String, String> out = new LinkedHashMap<>();
        claims.toJSONObject().forEach((name, value) -> {
            if (value instanceof List<?> list) {
                out.put(name, list.stream().map(String::valueOf).collect(Collectors.joining(" ", "[", "]")));
            } else if (value != null) {
                out.put(name, String.valueOf(value));
            }
        });
        return out;
    }

    private DefaultJWTProcessor<SecurityContext> processor() throws Rejected {
        DefaultJWTProcessor<SecurityContext> p = processor;
        if (p == null) {
            synchronized (this) {
                p = processor;
                if (p == null) {
                    p = buildProcessor(jwksUrl());
                    processor = p;
                }
            }
        }
        return p;
    }

    private DefaultJWTProcessor<SecurityContext> buildProcessor(URL jwksUrl) {
        // JWKSourceBuilder caches the key set (refresh-ahead), refetches on an unknown key id (rate limited)
        // and retries once on a network error: one fetch per container in the common case.
        return buildProcessor(JWKSourceBuilder
                .create(jwksUrl, new DefaultResourceRetriever(HTTP_TIMEOUT_MS, HTTP_TIMEOUT_MS, 512 * 1024))
                .retrying(true)
                .build());
    }

    /**
     * SnapStart priming: one verification, through a processor built like the real one, of a token signed by a
     * throwaway RSA key, so the token parsing, claim checks and RS256 signature path are loaded before the snapshot.
     * Nothing is fetched (the issuer's keys are not asked for) and the key does not outlive the call.
     */
    public Caller prime() {
        try {
            java.security.KeyPairGenerator generator = java.security.KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            java.security.KeyPair pair = generator.generateKeyPair();
            com.nimbusds.jose.jwk.RSAKey key = new com.nimbusds.jose.jwk.RSAKey.Builder(
                    (java.security.interfaces.RSAPublicKey) pair.getPublic()).keyID("priming").build();
            com.nimbusds.jwt.SignedJWT token = new com.nimbusds.jwt.SignedJWT(
                    new com.nimbusds.jose.JWSHeader.Builder(JWSAlgorithm.RS256).type(JOSEObjectType.JWT).keyID("priming").build(),
                    new JWTClaimsSet.Builder().issuer(issuer).subject("priming").audience(audiences.iterator().next())
                            .expirationTime(new java.util.Date(System.currentTimeMillis() + 60_000)).build());
            token.sign(new com.nimbusds.jose.crypto.RSASSASigner(pair.getPrivate()));
            JWTClaimsSet claims = buildProcessor(new com.nimbusds.jose.jwk.source.ImmutableJWKSet<SecurityContext>(
                    new com.nimbusds.jose.jwk.JWKSet(key))).process(token.serialize(), null);
            if (!acceptsAudience(claims)) {
                throw new IllegalStateException("the priming token's audience was refused");
            }
            return new Caller(claims.getSubject(), renderClaims(claims));
        } catch (Exception e) {
            throw new IllegalStateException("JWT priming failed: " + e.getMessage(), e);
        }
    }

    private DefaultJWTProcessor<SecurityContext> buildProcessor(JWKSource<SecurityContext> keys) {
        DefaultJWTProcessor<SecurityContext> p = new DefaultJWTProcessor<>();
        p.setJWSTypeVerifier(new DefaultJOSEObjectTypeVerifier<>(
                JOSEObjectType.JWT, new JOSEObjectType("at+jwt"), null));
        p.setJWSKeySelector(new JWSVerificationKeySelector<>(ALGORITHMS, keys));
        // Audience is checked above (aud or client_id, as API Gateway does); here: exact issuer, exp and sub present.
        p.setJWTClaimsSetVerifier(new DefaultJWTClaimsVerifier<>(
                null, new JWTClaimsSet.Builder().issuer(issuer).build(), Set.of("exp", "sub"), null));
        return p;
    }

    private URL jwksUrl() throws Rejected {
        try {
            if (configuredJwksUrl != null && !configuredJwksUrl.isBlank()) {
                return URI.create(configuredJwksUrl).toURL();
            }
            return discoverJwksUrl();
        } catch (MalformedURLException | IllegalArgumentException e) {
            throw new Rejected("the JWKS address is not a URL: " + e.getMessage());
        }
    }

    /** OIDC discovery: {@code <issuer>/.well-known/openid-configuration} names {@code jwks_uri}. */
    private URL discoverJwksUrl() throws Rejected, MalformedURLException {
        String base = issuer.endsWith("/") ? issuer.substring(0, issuer.length() - 1) : issuer;
        URL discovery = URI.create(base + "/.well-known/openid-configuration").toURL();
        try {
            String body = new DefaultResourceRetriever(HTTP_TIMEOUT_MS, HTTP_TIMEOUT_MS, 512 * 1024)
                    .retrieveResource(discovery).getContent();
            JsonNode jwksUri = Json.MAPPER.readTree(body).path("jwks_uri");
            if (!jwksUri.isTextual()) {
                throw new Rejected("the issuer's discovery document has no jwks_uri");
            }
            return URI.create(jwksUri.asText()).toURL();
        } catch (Rejected e) {
            throw e;
        } catch (Exception e) {
            // Not cached: the next request tries discovery again.
            throw new Rejected("the issuer's discovery document could not be read: " + e.getMessage());
        }
    }
}
