package io.routegateway.common.upstream;

import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.routegateway.core.hostpolicy.HostPolicy;
import io.routegateway.core.upstream.UpstreamRequest;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.dns.AddressResolverOptions;
import io.vertx.core.http.HttpServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Connect time: the upstream's host is resolved once, the address judged by the host policy and
 * exactly that address connected to, the host name kept as the request's authority. The upstream is
 * a local server counting every connection it is offered, so "nothing was sent" is observed, not
 * assumed.
 */
class UpstreamHostPolicyTests {

    private static final UpstreamTimeouts TIMEOUTS =
            UpstreamTimeouts.of(Duration.ofSeconds(5), Duration.ofSeconds(5), "test.upstream");

    private static Vertx vertx;
    private static HttpServer server;
    private static Path hosts;
    private static final AtomicInteger connections = new AtomicInteger();
    private static final Queue<String> hostHeaders = new ConcurrentLinkedQueue<>();
    private final Queue<AddressRefused> refusals = new ConcurrentLinkedQueue<>();

    @BeforeAll
    static void start() throws Exception {
        // a hosts file read by Vert.x's own resolver: the names of this test and nothing else
        hosts = Files.createTempFile("upstream-hosts", ".txt");
        Files.writeString(
                hosts,
                "169.254.169.254 metadata-lookalike.example.com\n"
                        + "100.100.100.200 alibaba-lookalike.example.com\n"
                        + "127.0.0.1 served.example.com\n");
        vertx = Vertx.vertx(new VertxOptions()
                .setAddressResolverOptions(new AddressResolverOptions().setHostsPath(hosts.toString())));
        server = vertx.createHttpServer()
                .connectionHandler(connection -> connections.incrementAndGet())
                .requestHandler(request -> {
                    hostHeaders.add(request.authority().toString());
                    request.response()
                            .putHeader("content-type", "application/json")
                            .end("{\"choices\":[{\"message\":{\"content\":\"hi\"}}]}");
                })
                .listen(0, "127.0.0.1")
                .toCompletionStage()
                .toCompletableFuture()
                .get(10, TimeUnit.SECONDS);
    }

    @AfterAll
    static void stop() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        Files.deleteIfExists(hosts);
    }

    @BeforeEach
    void reset() {
        connections.set(0);
        hostHeaders.clear();
    }

    @Test
    void aNameTheResolverMapsToALinkLocalOrMetadataAddressIsRefusedAndAnAllowedOneIsServed() {
        UpstreamClient client = client(HostPolicy.DEFAULT, UpstreamResolver.of(vertx));
        try {
            UpstreamResponse.Complete linkLocal = exchange(client, "metadata-lookalike.example.com", false);
            UpstreamResponse.Complete metadata = exchange(client, "alibaba-lookalike.example.com", false);
            UpstreamResponse.Complete served = exchange(client, "served.example.com", false);

            assertThat(linkLocal.status()).isNull();
            assertThat(linkLocal.transportError()).isEqualTo(UpstreamClient.ADDRESS_REFUSED + " (link_local)");
            assertThat(metadata.transportError()).isEqualTo(UpstreamClient.ADDRESS_REFUSED + " (metadata)");
            assertThat(served.status()).isEqualTo(200);
            assertThat(hostHeaders).containsExactly("served.example.com:" + server.actualPort());
            assertThat(refusals)
                    .extracting(AddressRefused::host, AddressRefused::address, AddressRefused::reason)
                    .containsExactly(
                            org.assertj.core.groups.Tuple.tuple(
                                    "metadata-lookalike.example.com", "169.254.169.254", "link_local"),
                            org.assertj.core.groups.Tuple.tuple(
                                    "alibaba-lookalike.example.com", "100.100.100.200", "metadata"));
        } finally {
            client.close();
        }
    }

    @Test
    void aRefusedAddressIsNeverConnectedToNotEvenWhenSomethingListensThere() {
        // the policy refuses the deployment's own ports on a private address: here the local server's
        HostPolicy ownPort = new HostPolicy(Set.of(server.actualPort()), Set.of(), Set.of(), false);
        UpstreamClient client = client(ownPort, host -> Future.succeededFuture(loopback()));
        try {
            UpstreamResponse.Complete buffered = exchange(client, "internal.example.com", false);
            UpstreamResponse streamed = client.open(request("internal.example.com", true), TIMEOUTS)
                    .await()
                    .atMost(Duration.ofSeconds(10));

            assertThat(buffered.transportError()).isEqualTo(UpstreamClient.ADDRESS_REFUSED + " (own_port)");
            assertThat(streamed).isInstanceOf(UpstreamResponse.Complete.class);
            assertThat(((UpstreamResponse.Complete) streamed).transportError())
                    .isEqualTo(UpstreamClient.ADDRESS_REFUSED + " (own_port)");
            assertThat(connections.get())
                    .as("connections the refused address was offered")
                    .isZero();
            assertThat(refusals).hasSize(2).allMatch(refused -> refused.reason().equals("own_port"));
        } finally {
            client.close();
        }
    }

    @Test
    void aNameThatRebindsBetweenTwoRequestsIsJudgedEachTimeAndResolvedOncePerRequest() {
        AtomicInteger lookups = new AtomicInteger();
        UpstreamResolver rebinding = host -> {
            try {
                // first an allowed address, then the metadata service
                return Future.succeededFuture(
                        lookups.incrementAndGet() == 1 ? loopback() : InetAddress.getByName("169.254.169.254"));
            } catch (Exception e) {
                return Future.failedFuture(e);
            }
        };
        UpstreamClient client = client(HostPolicy.DEFAULT, rebinding);
        try {
            UpstreamResponse.Complete first = exchange(client, "rebinding.example.com", false);
            UpstreamResponse.Complete second = exchange(client, "rebinding.example.com", false);

            assertThat(first.status()).isEqualTo(200);
            assertThat(second.transportError()).isEqualTo(UpstreamClient.ADDRESS_REFUSED + " (link_local)");
            assertThat(lookups.get())
                    .as("one lookup per request: the address judged is the one used")
                    .isEqualTo(2);
            assertThat(connections.get()).isEqualTo(1);
        } finally {
            client.close();
        }
    }

    @Test
    void anAllowListedHostIsConnectedToWhateverItResolvesTo() {
        HostPolicy policy =
                new HostPolicy(Set.of(server.actualPort()), Set.of("internal.example.com"), Set.of(), false);
        UpstreamClient client = client(policy, host -> Future.succeededFuture(loopback()));
        try {
            assertThat(exchange(client, "internal.example.com", false).status()).isEqualTo(200);
            assertThat(refusals).isEmpty();
        } finally {
            client.close();
        }
    }

    @Test
    void aNameThatDoesNotResolveIsATransportFailureWithoutTheUrl() {
        UpstreamClient client = client(
                HostPolicy.DEFAULT,
                host -> Future.failedFuture(new java.net.UnknownHostException("no such host: " + host)));
        try {
            UpstreamResponse.Complete response = exchange(client, "nowhere.example.com", false);

            assertThat(response.status()).isNull();
            assertThat(response.transportError())
                    .contains("UnknownHostException")
                    .doesNotContain("/v1/");
            assertThat(refusals).isEmpty();
        } finally {
            client.close();
        }
    }

    private UpstreamClient client(HostPolicy policy, UpstreamResolver resolver) {
        return new UpstreamClient(vertx, policy, resolver, refusals::add);
    }

    private static UpstreamResponse.Complete exchange(UpstreamClient client, String host, boolean stream) {
        return client.exchange(request(host, stream), TIMEOUTS, false).await().atMost(Duration.ofSeconds(10));
    }

    private static UpstreamRequest request(String host, boolean stream) {
        return new UpstreamRequest(
                "POST",
                "http://" + host + ":" + server.actualPort() + "/v1/chat/completions",
                List.of(Map.entry("authorization", "Bearer upstream-secret")),
                "{\"model\":\"m\"}".getBytes(StandardCharsets.UTF_8),
                stream,
                "m");
    }

    private static InetAddress loopback() {
        try {
            return InetAddress.getByAddress(new byte[] {127, 0, 0, 1});
        } catch (java.net.UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }
}
