package io.routegateway.state.identity;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;

import com.sun.net.httpserver.HttpServer;
import org.jose4j.jwk.RsaJsonWebKey;
import org.jose4j.jwk.RsaJwkGenerator;
import org.jose4j.jws.AlgorithmIdentifiers;
import org.jose4j.jws.JsonWebSignature;
import org.jose4j.jwt.JwtClaims;
import org.jose4j.lang.JoseException;

/**
 * A stand-in OpenID Connect issuer on loopback: a discovery document and a JWKS with one RSA key,
 * and tokens signed in the test with that key (or another one, for a tampered signature). Started
 * once, on first use.
 */
final class TestIssuer {

    static final String AUDIENCE = "route-gateway";

    private static TestIssuer instance;

    private final HttpServer server;
    private final RsaJsonWebKey key;
    private final RsaJsonWebKey stranger;

    private TestIssuer() {
        try {
            key = RsaJwkGenerator.generateJwk(2048);
            key.setKeyId("test-key");
            stranger = RsaJwkGenerator.generateJwk(2048);
            stranger.setKeyId("test-key");
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (JoseException | IOException e) {
            throw new IllegalStateException(e);
        }
        String jwks = "{\"keys\":[" + key.toJson() + "]}";
        server.createContext(
                "/realms/test/.well-known/openid-configuration", exchange -> answer(exchange, discovery()));
        server.createContext("/realms/test/keys", exchange -> answer(exchange, jwks));
        server.start();
    }

    static synchronized TestIssuer get() {
        if (instance == null) {
            instance = new TestIssuer();
        }
        return instance;
    }

    String issuer() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/realms/test";
    }

    private String discovery() {
        String issuer = issuer();
        return "{\"issuer\":\"" + issuer + "\",\"jwks_uri\":\"" + issuer + "/keys\",\"authorization_endpoint\":\""
                + issuer + "/auth\",\"token_endpoint\":\"" + issuer
                + "/token\",\"id_token_signing_alg_values_supported\":[\"RS256\"]}";
    }

    private static void answer(com.sun.net.httpserver.HttpExchange exchange, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    /** Claims of a valid token for {@code subject} with these groups, valid for five minutes. */
    JwtClaims claims(String subject, String... groups) {
        JwtClaims claims = new JwtClaims();
        claims.setIssuer(issuer());
        claims.setAudience(AUDIENCE);
        claims.setSubject("sub-" + subject);
        claims.setClaim("preferred_username", subject);
        claims.setStringListClaim("groups", groups);
        long now = Instant.now().getEpochSecond();
        claims.setIssuedAt(org.jose4j.jwt.NumericDate.fromSeconds(now - 10));
        claims.setExpirationTime(org.jose4j.jwt.NumericDate.fromSeconds(now + 300));
        return claims;
    }

    String sign(JwtClaims claims) {
        return sign(claims, key);
    }

    /** Signed with a key the issuer never published under the same key id. */
    String signWithStranger(JwtClaims claims) {
        return sign(claims, stranger);
    }

    /** The claims with {@code alg: none} and an empty signature. */
    static String unsigned(JwtClaims claims) {
        Base64.Encoder encoder = Base64.getUrlEncoder().withoutPadding();
        String header = encoder.encodeToString("{\"alg\":\"none\",\"typ\":\"JWT\"}".getBytes(StandardCharsets.UTF_8));
        String payload = encoder.encodeToString(claims.toJson().getBytes(StandardCharsets.UTF_8));
        return header + "." + payload + ".";
    }

    private static String sign(JwtClaims claims, RsaJsonWebKey with) {
        JsonWebSignature jws = new JsonWebSignature();
        jws.setPayload(claims.toJson());
        jws.setKey(with.getPrivateKey());
        jws.setKeyIdHeaderValue(with.getKeyId());
        jws.setAlgorithmHeaderValue(AlgorithmIdentifiers.RSA_USING_SHA256);
        try {
            return jws.getCompactSerialization();
        } catch (JoseException e) {
            throw new UncheckedIOException(new IOException(e));
        }
    }

    /** The test profile: SSO on against this issuer, teams by the {@code team:} group convention. */
    public static class Profile implements io.quarkus.test.junit.QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of(
                    "state.oidc.enabled",
                    "true",
                    "state.oidc.issuer",
                    get().issuer(),
                    "state.oidc.client-id",
                    AUDIENCE,
                    "state.oidc.team-group-prefix",
                    "team:");
        }
    }
}
