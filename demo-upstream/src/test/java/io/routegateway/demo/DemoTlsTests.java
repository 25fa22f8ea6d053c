package io.routegateway.demo;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.net.PfxOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The TLS port: HTTP/2 by ALPN with many streams per connection, HTTP/1.1 for a client without
 * ALPN, and the cleartext port next to it unchanged. The certificate is made the way bench/run.sh
 * makes it (keytool, a SAN for 127.0.0.1 and localhost).
 */
class DemoTlsTests {

    static final String PASSWORD = "demo-tls-test";
    static final long MAX_STREAMS = 321;
    static final String SLOW = "{\"model\":\"m\",\"stream\":true,\"demo_stream\":{\"frames\":5,\"interval_ms\":5},"
            + "\"messages\":[{\"role\":\"user\",\"content\":\"Count.\"}]}";

    @TempDir
    static Path dir;

    static Vertx vertx;
    static DemoUpstream upstream;
    static Path keystore;
    static int cleartextPort;
    static int tlsPort;

    @BeforeAll
    static void start() throws Exception {
        keystore = dir.resolve("upstream.p12");
        keytool(
                "-genkeypair",
                "-alias",
                "demo",
                "-keyalg",
                "RSA",
                "-keysize",
                "2048",
                "-validity",
                "2",
                "-dname",
                "CN=localhost",
                "-ext",
                "san=ip:127.0.0.1,dns:localhost",
                "-storetype",
                "PKCS12",
                "-keystore",
                keystore.toString(),
                "-storepass",
                PASSWORD,
                "-keypass",
                PASSWORD);
        vertx = Vertx.vertx();
        upstream = new DemoUpstream(vertx);
        cleartextPort = await(upstream.start(0));
        tlsPort = await(upstream.startTls(
                0, new PfxOptions().setPath(keystore.toString()).setPassword(PASSWORD), MAX_STREAMS));
    }

    @AfterAll
    static void stop() throws Exception {
        await(vertx.close());
    }

    static void keytool(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());
        assertThat(process.waitFor()).as(output).isZero();
        assertThat(Files.exists(keystore)).isTrue();
    }

    static <T> T await(Future<T> future) throws Exception {
        return future.toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
    }

    /** What one streamed request got: protocol version, status, body, connection. */
    record Answer(HttpVersion version, int status, String body, HttpConnection connection) {}

    static Future<Answer> post(HttpClient client, int port, String body) {
        return client.request(new RequestOptions()
                        .setMethod(HttpMethod.POST)
                        .setHost("127.0.0.1")
                        .setPort(port)
                        .setURI("/v1/chat/completions")
                        .putHeader("content-type", "application/json")
                        .putHeader("authorization", "Bearer key-tls"))
                .compose(request -> request.send(Buffer.buffer(body))
                        .compose(response -> response.body()
                                .map(all -> new Answer(
                                        response.version(),
                                        response.statusCode(),
                                        all.toString(),
                                        request.connection()))));
    }

    static HttpClientOptions http2TrustingAll() {
        return new HttpClientOptions()
                .setSsl(true)
                .setUseAlpn(true)
                .setProtocolVersion(HttpVersion.HTTP_2)
                .setTrustAll(true)
                .setVerifyHost(false);
    }

    static int count(String text, String needle) {
        int n = 0;
        for (int at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + 1)) {
            n++;
        }
        return n;
    }

    static void assertSlowStream(Answer answer) {
        assertThat(answer.status()).isEqualTo(200);
        assertThat(count(answer.body(), "\"delta\":{\"content\":\"tok")).isEqualTo(5);
        assertThat(answer.body()).contains("\"finish_reason\":\"stop\"").endsWith("data: [DONE]\n\n");
    }

    @Test
    void anHttp2ClientGetsASlowStreamOverHttp2() throws Exception {
        assertSlowStreamOver(http2TrustingAll(), tlsPort, HttpVersion.HTTP_2);
    }

    @Test
    void oneHttp2ConnectionCarriesManyStreamsAndAdvertisesTheConfiguredLimit() throws Exception {
        HttpClient client = vertx.createHttpClient(http2TrustingAll(), new PoolOptions().setHttp2MaxSize(1));
        try {
            List<Future<Answer>> streams = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                streams.add(post(client, tlsPort, SLOW));
            }
            await(Future.all(streams));
            Set<HttpConnection> connections = new HashSet<>();
            for (Future<Answer> stream : streams) {
                Answer answer = stream.result();
                assertThat(answer.version()).isEqualTo(HttpVersion.HTTP_2);
                assertSlowStream(answer);
                connections.add(answer.connection());
            }
            assertThat(connections).hasSize(1);
            // the upstream counts them too: HTTP/2 requests, and connections to its TLS port
            assertThat(upstream.requestCount(HttpVersion.HTTP_2)).isGreaterThanOrEqualTo(50);
            assertThat(upstream.tlsConnections()[0]).isGreaterThanOrEqualTo(1);
            assertThat(upstream.tlsConnections()[2]).isGreaterThanOrEqualTo(1);
            assertThat(connections.iterator().next().remoteSettings().getMaxConcurrentStreams())
                    .isEqualTo(MAX_STREAMS);
        } finally {
            await(client.close());
        }
    }

    @Test
    void aClientTrustingTheCertificateVerifiesTheHostByItsIpAddress() throws Exception {
        // as the gateway's upstream client does (verify host on), with the bench's trust store
        assertSlowStreamOver(
                new HttpClientOptions()
                        .setSsl(true)
                        .setUseAlpn(true)
                        .setProtocolVersion(HttpVersion.HTTP_2)
                        .setVerifyHost(true)
                        .setTrustOptions(
                                new PfxOptions().setPath(keystore.toString()).setPassword(PASSWORD)),
                tlsPort,
                HttpVersion.HTTP_2);
    }

    @Test
    void aClientWithoutAlpnGetsHttp11OnTheTlsPort() throws Exception {
        assertSlowStreamOver(
                new HttpClientOptions().setSsl(true).setTrustAll(true).setVerifyHost(false),
                tlsPort,
                HttpVersion.HTTP_1_1);
    }

    @Test
    void theCleartextPortStillSpeaksHttp11() throws Exception {
        assertSlowStreamOver(new HttpClientOptions(), cleartextPort, HttpVersion.HTTP_1_1);
    }

    /** A slow stream asked of {@code port} by a client with these options arrives whole over {@code version}. */
    private static void assertSlowStreamOver(HttpClientOptions options, int port, HttpVersion version)
            throws Exception {
        HttpClient client = vertx.createHttpClient(options);
        try {
            Answer answer = await(post(client, port, SLOW));
            assertThat(answer.version()).isEqualTo(version);
            assertSlowStream(answer);
        } finally {
            await(client.close());
        }
    }
}
