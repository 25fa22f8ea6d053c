package io.routegateway.common.upstream;

import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

import io.routegateway.core.failure.UpstreamOutcome;
import io.routegateway.core.failure.Verdict;
import io.routegateway.core.model.CredentialKind;
import io.routegateway.core.model.Platform;
import io.routegateway.core.upstream.UpstreamRequest;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.Http2Settings;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.net.PfxOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * HTTPS upstreams are spoken to over HTTP/2 when they offer it by ALPN, buffered and streamed, with
 * the host name verified against the certificate. The upstream here is a local Vert.x server with a
 * self-signed certificate for {@code localhost}; the test JVM trusts it through the standard
 * {@code javax.net.ssl.trustStore} properties, as an operator would trust a private CA.
 */
class UpstreamClientHttp2Tests {

    private static final UpstreamTimeouts TIMEOUTS =
            UpstreamTimeouts.of(Duration.ofSeconds(5), Duration.ofSeconds(5), "test.upstream");
    private static final String[] TRUST_PROPERTIES = {
        "javax.net.ssl.trustStore", "javax.net.ssl.trustStorePassword", "javax.net.ssl.trustStoreType"
    };
    private static final String PASSWORD = "changeit";

    private static Vertx vertx;
    private static HttpServer server;
    private static UpstreamClient client;
    private static Path keyStore;
    private static Path trustStore;
    private static final Queue<HttpVersion> versionsSeen = new ConcurrentLinkedQueue<>();

    @BeforeAll
    static void start() throws Exception {
        keyStore = Files.createTempFile("upstream-key", ".p12");
        Files.delete(keyStore);
        generateKeyPairFor("localhost", keyStore);
        trustStore = trustStoreWith(keyStore);
        System.setProperty("javax.net.ssl.trustStore", trustStore.toString());
        System.setProperty("javax.net.ssl.trustStorePassword", PASSWORD);
        System.setProperty("javax.net.ssl.trustStoreType", "PKCS12");
        vertx = Vertx.vertx();
        server = vertx.createHttpServer(new HttpServerOptions()
                        .setSsl(true)
                        .setUseAlpn(true)
                        .setKeyCertOptions(
                                new PfxOptions().setPath(keyStore.toString()).setPassword(PASSWORD)))
                .requestHandler(request -> {
                    versionsSeen.add(request.version());
                    if (request.path().endsWith("/stream")) {
                        request.response().setChunked(true).putHeader("content-type", "text/event-stream");
                        request.response().write("data: {\"choices\":[{\"delta\":{\"content\":\"a\"}}]}\n\n");
                        vertx.setTimer(20, id -> request.response().end("data: [DONE]\n\n"));
                    } else {
                        request.response()
                                .putHeader("content-type", "application/json")
                                .end("{\"choices\":[{\"message\":{\"content\":\"over h2\"}}]}");
                    }
                })
                .listen(0, "127.0.0.1")
                .toCompletionStage()
                .toCompletableFuture()
                .get(10, TimeUnit.SECONDS);
        client = new UpstreamClient(vertx);
    }

    @AfterAll
    static void stop() throws Exception {
        client.close();
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        for (String property : TRUST_PROPERTIES) {
            System.clearProperty(property);
        }
        Files.deleteIfExists(trustStore);
        Files.deleteIfExists(keyStore);
    }

    @Test
    void aBufferedExchangeWithAnHttpsUpstreamUsesHttp2() {
        versionsSeen.clear();

        UpstreamResponse.Complete response = client.exchange(request("/v1/chat/completions", false), TIMEOUTS, false)
                .await()
                .atMost(Duration.ofSeconds(10));

        assertThat(response.status()).isEqualTo(200);
        assertThat(response.body().toString()).contains("over h2");
        assertThat(apiVerdict(response)).isEqualTo(Verdict.SUCCESS);
        assertThat(versionsSeen).containsExactly(HttpVersion.HTTP_2);
    }

    @Test
    void aStreamFromAnHttpsUpstreamArrivesOverHttp2WithItsMarker() throws Exception {
        versionsSeen.clear();

        UpstreamResponse response =
                client.open(request("/v1/stream", true), TIMEOUTS).await().atMost(Duration.ofSeconds(10));

        assertThat(response).isInstanceOf(UpstreamResponse.Streaming.class);
        UpstreamStream stream = ((UpstreamResponse.Streaming) response).stream();
        assertThat(stream.firstChunkText()).contains("\"a\"");
        StringBuilder rest = new StringBuilder();
        CompletableFuture<UpstreamOutcome> end = new CompletableFuture<>();
        vertx.runOnContext(
                v -> stream.start(chunk -> rest.append(chunk.toString(StandardCharsets.UTF_8)), end::complete));
        UpstreamOutcome outcome = end.get(10, TimeUnit.SECONDS);

        assertThat(rest.toString()).contains("[DONE]");
        assertThat(outcome.terminalMarkerSeen()).isTrue();
        assertThat(versionsSeen).containsExactly(HttpVersion.HTTP_2);
    }

    @Test
    void theHttp2ConnectionsPerHostBoundTheConcurrentStreamsToOneHost() throws Exception {
        // an upstream allowing 5 streams per connection, holding every stream open: with 10
        // connections per host 50 streams run at once (the former fixed 8 would let only 40 start,
        // the rest waiting out the connect ceiling in the pool)
        Vertx clientVertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1));
        Queue<HttpServerResponse> held = new ConcurrentLinkedQueue<>();
        Set<Object> connections = ConcurrentHashMap.newKeySet();
        HttpServer limited = vertx.createHttpServer(new HttpServerOptions()
                        .setSsl(true)
                        .setUseAlpn(true)
                        .setInitialSettings(new Http2Settings().setMaxConcurrentStreams(5))
                        .setKeyCertOptions(
                                new PfxOptions().setPath(keyStore.toString()).setPassword(PASSWORD)))
                .requestHandler(request -> {
                    connections.add(request.connection());
                    request.response().setChunked(true).putHeader("content-type", "text/event-stream");
                    request.response().write("data: {\"choices\":[{\"delta\":{\"content\":\"a\"}}]}\n\n");
                    held.add(request.response());
                })
                .listen(0, "127.0.0.1")
                .toCompletionStage()
                .toCompletableFuture()
                .get(10, TimeUnit.SECONDS);
        UpstreamClient bounded = new UpstreamClient(clientVertx, 4096, 10);
        // a ceiling ten TLS handshakes on one loaded event loop stay well within; a stream left
        // waiting in the pool (too few connections) still runs it out and fails
        UpstreamTimeouts ceiling = UpstreamTimeouts.of(Duration.ofSeconds(10), Duration.ofSeconds(30), "test.upstream");
        try {
            List<CompletableFuture<UpstreamResponse>> opened = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                opened.add(bounded.open(request(limited.actualPort(), "/v1/stream"), ceiling)
                        .subscribeAsCompletionStage());
            }
            List<UpstreamResponse> responses = new ArrayList<>();
            for (CompletableFuture<UpstreamResponse> response : opened) {
                responses.add(response.get(40, TimeUnit.SECONDS));
            }

            assertThat(responses)
                    .as("every stream started within the connect ceiling")
                    .allSatisfy(response -> assertThat(response).isInstanceOf(UpstreamResponse.Streaming.class));
            assertThat(connections).as("connections to the host").hasSizeLessThanOrEqualTo(10);
            assertThat(bounded.http2ConnectionsPerHost()).isEqualTo(10);
            responses.forEach(
                    response -> ((UpstreamResponse.Streaming) response).stream().cancel());
        } finally {
            vertx.runOnContext(v -> held.forEach(response -> response.reset()));
            bounded.close();
            limited.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
            clientVertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void aPerHostBoundBelowOneIsRefused() {
        assertThatThrownBy(() -> new UpstreamClient(vertx, 4096, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("route.upstream.http2-connections-per-host");
    }

    @Test
    void aCertificateForAnotherHostIsRefused() {
        // 127.0.0.1 is not the certificate's name: host verification must fail the exchange
        UpstreamRequest byAddress = new UpstreamRequest(
                "POST",
                "https://127.0.0.1:" + server.actualPort() + "/v1/chat/completions",
                List.of(Map.entry("authorization", "Bearer upstream-secret")),
                "{\"model\":\"m\"}".getBytes(StandardCharsets.UTF_8),
                false,
                "m");

        UpstreamResponse.Complete response =
                client.exchange(byAddress, TIMEOUTS, false).await().atMost(Duration.ofSeconds(10));

        assertThat(response.status()).isNull();
        assertThat(response.transportError()).isNotBlank();
        assertThat(apiVerdict(response)).isInstanceOf(Verdict.Transient.class);
    }

    @Test
    void theResolvedAddressIsConnectedToAndTheCertificateIsVerifiedAgainstTheHostName() {
        // the resolver hands out the IP; the certificate names only "localhost" (no IP SAN), so the
        // handshake passes only if the host name, not the address, is what TLS verifies
        java.util.concurrent.atomic.AtomicInteger lookups = new java.util.concurrent.atomic.AtomicInteger();
        UpstreamClient pinned = new UpstreamClient(
                vertx,
                io.routegateway.core.hostpolicy.HostPolicy.DEFAULT,
                host -> {
                    lookups.incrementAndGet();
                    assertThat(host).isEqualTo("localhost");
                    return io.vertx.core.Future.succeededFuture(
                            java.net.InetAddress.getLoopbackAddress().getAddress().length == 4
                                    ? java.net.InetAddress.getLoopbackAddress()
                                    : ipv4Loopback());
                },
                refused -> {});
        try {
            UpstreamResponse.Complete response = pinned.exchange(
                            request("/v1/chat/completions", false), TIMEOUTS, false)
                    .await()
                    .atMost(Duration.ofSeconds(10));

            assertThat(response.status()).isEqualTo(200);
            assertThat(lookups.get()).isEqualTo(1);
        } finally {
            pinned.close();
        }
    }

    private static java.net.InetAddress ipv4Loopback() {
        try {
            return java.net.InetAddress.getByAddress(new byte[] {127, 0, 0, 1});
        } catch (java.net.UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }

    private static UpstreamRequest request(String path, boolean stream) {
        return request(server.actualPort(), path, stream);
    }

    private static UpstreamRequest request(int port, String path) {
        return request(port, path, true);
    }

    private static UpstreamRequest request(int port, String path, boolean stream) {
        return new UpstreamRequest(
                "POST",
                "https://localhost:" + port + path,
                List.of(Map.entry("authorization", "Bearer upstream-secret")),
                "{\"model\":\"m\"}".getBytes(StandardCharsets.UTF_8),
                stream,
                "m");
    }

    /** A self-signed certificate for {@code host}, made by the JDK's own keytool. */
    private static void generateKeyPairFor(String host, Path file) throws Exception {
        Process keytool = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "keytool")
                                .toString(),
                        "-genkeypair",
                        "-alias",
                        "upstream",
                        "-keyalg",
                        "EC",
                        "-dname",
                        "CN=" + host,
                        "-ext",
                        "SAN=dns:" + host,
                        "-validity",
                        "2",
                        "-storetype",
                        "PKCS12",
                        "-keystore",
                        file.toString(),
                        "-storepass",
                        PASSWORD)
                .redirectErrorStream(true)
                .start();
        String output = new String(keytool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(keytool.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(keytool.exitValue()).as("keytool: %s", output).isZero();
    }

    /** A trust store holding only the certificate of {@code keyStore}. */
    private static Path trustStoreWith(Path keyStore) throws Exception {
        KeyStore keys = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(keyStore)) {
            keys.load(in, PASSWORD.toCharArray());
        }
        Certificate certificate = keys.getCertificate("upstream");
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        store.setCertificateEntry("upstream", certificate);
        Path file = Files.createTempFile("upstream-trust", ".p12");
        try (OutputStream out = Files.newOutputStream(file)) {
            store.store(out, PASSWORD.toCharArray());
        }
        return file;
    }

    /** An api key's verdict: the answer classified, no usage-limit signal read. */
    private static Verdict apiVerdict(UpstreamResponse.Complete response) {
        return response.verdict(CredentialKind.API, Platform.OPENAI, Instant.parse("2026-12-01T20:00:00Z"));
    }
}
