package io.routegateway.common.upstream;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.routegateway.core.failure.FailureKind;
import io.routegateway.core.failure.Verdict;
import io.routegateway.core.model.CredentialKind;
import io.routegateway.core.model.Platform;
import io.routegateway.core.upstream.UpstreamRequest;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The connect ceiling bounds the whole way to a usable connection: the TCP connect and the TLS
 * handshake. The upstreams here accept nothing, or accept TCP and never answer the ClientHello.
 */
class UpstreamConnectTimeoutTests {

    private Vertx vertx;
    private UpstreamClient client;
    private final List<AutoCloseable> opened = new CopyOnWriteArrayList<>();

    @BeforeEach
    void start() {
        vertx = Vertx.vertx();
        client = new UpstreamClient(vertx);
    }

    @AfterEach
    void stop() throws Exception {
        client.close();
        vertx.close().toCompletionStage().toCompletableFuture().get();
        for (AutoCloseable closeable : opened) {
            closeable.close();
        }
    }

    @Test
    void aTlsHandshakeTheUpstreamNeverAnswersEndsAtTheConnectTimeoutAndNamesItsSetting() throws Exception {
        int port = silentTcpServer();
        UpstreamTimeouts timeouts = UpstreamTimeouts.of(Duration.ofMillis(400), Duration.ofSeconds(5), "test.upstream");

        UpstreamResponse.Complete response = exchange("https://127.0.0.1:" + port + "/v1/chat/completions", timeouts);

        assertTransportFailureNaming(response, "test.upstream.connect-timeout=400ms");
    }

    /**
     * Vert.x cuts a TLS handshake at 10 s by default, with a message that names no setting; a
     * connect ceiling above that must still be the one that ends a stalled handshake.
     */
    @Test
    void aConnectCeilingAboveTheLibraryHandshakeDefaultStillBoundsTheHandshake() throws Exception {
        int port = silentTcpServer();
        UpstreamTimeouts timeouts = UpstreamTimeouts.of(Duration.ofSeconds(11), Duration.ofSeconds(5), "test.upstream");

        UpstreamResponse.Complete response = exchange("https://127.0.0.1:" + port + "/v1/chat/completions", timeouts);

        assertTransportFailureNaming(response, "test.upstream.connect-timeout=11s");
    }

    @Test
    void aTcpConnectThatNeverCompletesEndsAtTheConnectTimeoutAndNamesItsSetting() throws Exception {
        int port = serverWithAFullAcceptQueue();
        UpstreamTimeouts timeouts = UpstreamTimeouts.of(Duration.ofMillis(400), Duration.ofSeconds(5), "test.upstream");

        UpstreamResponse.Complete response = exchange("http://127.0.0.1:" + port + "/v1/chat/completions", timeouts);

        assertTransportFailureNaming(response, "test.upstream.connect-timeout=400ms");
    }

    private UpstreamResponse.Complete exchange(String url, UpstreamTimeouts timeouts) {
        UpstreamRequest request = new UpstreamRequest(
                "POST", url, List.of(), "{\"model\":\"m\"}".getBytes(StandardCharsets.UTF_8), false, "m");
        return client.exchange(request, timeouts, false).await().atMost(Duration.ofSeconds(30));
    }

    private static void assertTransportFailureNaming(UpstreamResponse.Complete response, String setting) {
        assertThat(response.status()).isNull();
        assertThat(response.transportError()).startsWith("connect timeout").contains(setting);
        assertThat(apiVerdict(response)).isInstanceOfSatisfying(Verdict.Transient.class, failure -> {
            assertThat(failure.kind()).isEqualTo(FailureKind.TRANSPORT);
            assertThat(failure.message()).contains(setting);
        });
    }

    /** Accepts TCP connections and never writes a byte: a TLS ClientHello goes unanswered. */
    private int silentTcpServer() throws IOException {
        ServerSocket server = new ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress());
        opened.add(server);
        Thread acceptor = new Thread(() -> {
            try {
                while (!server.isClosed()) {
                    opened.add(server.accept());
                }
            } catch (IOException closed) {
                // the test is over
            }
        });
        acceptor.setDaemon(true);
        acceptor.start();
        return server.getLocalPort();
    }

    /**
     * A listening socket that never accepts, its accept queue filled: the kernel drops further
     * SYNs, so a new TCP connect neither succeeds nor is refused.
     */
    private int serverWithAFullAcceptQueue() throws IOException {
        ServerSocket server = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress());
        opened.add(server);
        InetSocketAddress address = new InetSocketAddress(server.getInetAddress(), server.getLocalPort());
        for (int i = 0; i < 8; i++) {
            Socket filler = new Socket();
            opened.add(filler);
            try {
                filler.connect(address, 200);
            } catch (IOException full) {
                // the queue is full: the next connect stalls as well
                return server.getLocalPort();
            }
        }
        throw new IllegalStateException("the accept queue never filled up");
    }

    /** An api key's verdict: the answer classified, no usage-limit signal read. */
    private static Verdict apiVerdict(UpstreamResponse.Complete response) {
        return response.verdict(CredentialKind.API, Platform.OPENAI, Instant.parse("2026-12-01T20:00:00Z"));
    }
}
