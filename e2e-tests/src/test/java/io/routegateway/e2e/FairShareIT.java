package io.routegateway.e2e;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import io.routegateway.core.limits.Limits;
import io.routegateway.demo.Behaviour;
import io.routegateway.demo.Behaviour.Mode;
import io.routegateway.e2e.support.EndToEndTest;
import io.routegateway.e2e.support.GatewayClient;
import io.routegateway.e2e.support.Http;
import io.routegateway.e2e.support.Pool;
import io.routegateway.e2e.support.ServiceProcess;
import io.routegateway.e2e.support.SignedState;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Parallel slots under contention, on three gateway replicas sharing their leases through Kafka:
 *
 * <ul>
 *   <li><b>Fair share.</b> A pool of two credentials with {@code max_parallel_requests} 2 each (K =
 *       {@value #K}) behind a slow upstream. Team B (the quiet one) sends at its share (K/2 = 2
 *       clients, each waiting for its answer), first alone, then while team A bursts at ten times
 *       its share ({@value #BURST_CLIENTS} clients). The test prints B's success rate and latency
 *       alone and under the burst, and A's answers, as {@code E2E-SUMMARY FairShareIT ...}; it
 *       asserts the rule, not timings: B keeps ≥ 95 % of its requests served under the burst, and A
 *       is refused with {@code concurrency_limit_exceeded} (fair share) while it is served too.
 *   <li><b>Disconnect.</b> A team with {@code max_parallel_requests} 1 opens a stream; every replica
 *       refuses the team's next request while it runs; the client goes away mid-stream; every replica
 *       admits the team again well within a lease's term (the close, not the lease's expiry, freed
 *       the slot).
 * </ul>
 */
class FairShareIT extends EndToEndTest {

    private static final String MODEL = "fs-m";
    private static final String UPSTREAM = "fs-u";
    /** The pool's capacity: two credentials of two parallel requests each. */
    private static final int K = 4;
    /** The quiet team's clients: its share of K between two equal teams. */
    private static final int QUIET_CLIENTS = K / 2;
    /** The bursting team's clients: ten times its share. */
    private static final int BURST_CLIENTS = 10 * K / 2;
    /** How long the slow upstream takes to answer. */
    private static final long UPSTREAM_MILLIS = 500;
    /** A refused burst client's pause before its next request. */
    private static final long BURST_PAUSE_MILLIS = 100;

    private static List<ServiceProcess> replicas;
    private static Pool pool;
    private static String sharedGroup;
    private static String streamGroup;
    private static SignedState state;
    private static String suffix;

    @BeforeAll
    static void threeReplicasAndTwoPools() {
        replicas = system.gatewayReplicas(3);
        pool = Pool.create(system, replicas);
        String first = pool.credential("fs1", c -> c.map(MODEL, UPSTREAM).maxParallelRequests(K / 2));
        String second = pool.credential("fs2", c -> c.map(MODEL, UPSTREAM).maxParallelRequests(K / 2));
        sharedGroup = pool.group("fs", first, second);
        String streaming = pool.credential("fsd", c -> c.map(MODEL, UPSTREAM));
        streamGroup = pool.group("fsd", streaming);
        String probe = pool.accessKey(sharedGroup, streamGroup);
        pool.awaitVisible(probe);
        state = new SignedState(system);
        suffix = Long.toHexString(System.nanoTime());
    }

    @AfterAll
    static void healthyAgain() {
        for (String credential : pool.credentials()) {
            system.demo().setBehaviour(credential, Behaviour.HEALTHY);
        }
    }

    @Test
    void aBurstingTeamYieldsToTheQuietTeamOnAFullPool() throws Exception {
        String quietTeam = "fs-quiet-" + suffix;
        String burstTeam = "fs-burst-" + suffix;
        state.team(quietTeam, Limits.NONE, 1);
        state.team(burstTeam, Limits.NONE, 1);
        String quiet = state.key("fsk-q-" + suffix, quietTeam, Limits.NONE, sharedGroup, replicas);
        String burst = state.key("fsk-b-" + suffix, burstTeam, Limits.NONE, sharedGroup, replicas);
        for (String credential : pool.credentials()) {
            system.demo().setBehaviour(credential, new Behaviour(Mode.HEALTHY, 200, null, UPSTREAM_MILLIS, 0));
        }

        List<Answer> alone = closedLoop(QUIET_CLIENTS, quiet, Duration.ofSeconds(6));

        List<Answer> burstAnswers = Collections.synchronizedList(new ArrayList<>());
        AtomicBoolean stop = new AtomicBoolean();
        ExecutorService bursting = Executors.newFixedThreadPool(BURST_CLIENTS);
        AtomicInteger next = new AtomicInteger();
        for (int c = 0; c < BURST_CLIENTS; c++) {
            bursting.execute(() -> {
                while (!stop.get()) {
                    Answer answer = send(next.getAndIncrement(), burst);
                    burstAnswers.add(answer);
                    if (answer.status() != 200) {
                        pause(BURST_PAUSE_MILLIS);
                    }
                }
            });
        }
        List<Answer> contended;
        try {
            // the burst holds the pool: its own requests are being refused
            await("the burst fills the pool")
                    .atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(50))
                    .until(() -> burstAnswers.stream().anyMatch(a -> a.status() == 429));
            contended = closedLoop(QUIET_CLIENTS, quiet, Duration.ofSeconds(8));
        } finally {
            stop.set(true);
            bursting.shutdown();
            assertThat(bursting.awaitTermination(1, TimeUnit.MINUTES)).isTrue();
        }

        Stats quietAlone = Stats.of(alone);
        Stats quietContended = Stats.of(contended);
        List<Answer> burstCopy = new ArrayList<>(burstAnswers);
        long burstServed = burstCopy.stream().filter(a -> a.status() == 200).count();
        long fairShareRefusals =
                burstCopy.stream().filter(Answer::isFairShareRefusal).count();
        long burstOther = burstCopy.size() - burstServed - fairShareRefusals;
        System.out.printf(
                "E2E-SUMMARY FairShareIT quiet team alone: %s (K %d, %d clients, upstream %d ms, %d replicas)%n",
                quietAlone, K, QUIET_CLIENTS, UPSTREAM_MILLIS, replicas.size());
        System.out.printf(
                "E2E-SUMMARY FairShareIT quiet team under a 10x burst: %s; others %s%n",
                quietContended, quietContended.failures);
        System.out.printf(
                "E2E-SUMMARY FairShareIT bursting team: clients %d, requests %d, served %d, fair-share refusals %d,"
                        + " other %d %s%n",
                BURST_CLIENTS,
                burstCopy.size(),
                burstServed,
                fairShareRefusals,
                burstOther,
                Stats.of(burstCopy.stream().filter(a -> !a.isFairShareRefusal()).toList()).failures);

        assertThat(quietAlone.successRate()).as("alone: %s", quietAlone).isGreaterThanOrEqualTo(0.95);
        assertThat(quietContended.successRate())
                .as("under the burst: %s", quietContended)
                .isGreaterThanOrEqualTo(0.95);
        assertThat(fairShareRefusals)
                .as("the burst is refused at its fair share")
                .isPositive();
        assertThat(burstServed).as("the burst is served too").isPositive();
        assertThat(burstCopy)
                .filteredOn(a -> a.status() == 429)
                .allSatisfy(a -> assertThat(a.retryAfter()).as("%s", a).isEqualTo("1"));
    }

    @Test
    void aClientDisconnectMidStreamFreesItsParallelSlotOnEveryReplica() throws Exception {
        String team = "fs-one-" + suffix;
        // the team's rpm only shows (in the headers) that its limits reached a replica
        state.team(team, new Limits(1_000_000, null, 1, null, null), 1);
        String key = state.key("fsk-one-" + suffix, team, Limits.NONE, streamGroup, replicas);
        for (int i = 0; i < replicas.size(); i++) {
            GatewayClient replica = client(i);
            await("team visible to replica " + i)
                    .atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> "1000000".equals(header(replica.chat(key, MODEL), "x-ratelimit-limit-requests")));
        }

        // the visibility checks' closes reach replica 0 one Kafka hop late: until then its slot looks taken
        AtomicReference<OpenStream> opened = new AtomicReference<>();
        await("replica 0 starts the team's stream")
                .atMost(Duration.ofSeconds(15))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> {
                    OpenStream attempt = OpenStream.open(replicas.get(0), key);
                    if (attempt.head().startsWith("HTTP/1.1 200")) {
                        opened.set(attempt);
                        return true;
                    }
                    attempt.close();
                    return false;
                });
        try (OpenStream stream = opened.get()) {
            assertThat(stream.head()).startsWith("HTTP/1.1 200").contains("data:");
            for (int i = 0; i < replicas.size(); i++) {
                GatewayClient replica = client(i);
                await("replica " + i + " counts the running stream")
                        .atMost(Duration.ofSeconds(15))
                        .pollInterval(Duration.ofMillis(100))
                        .until(() -> "concurrency_limit_exceeded"
                                .equals(replica.chat(key, MODEL).errorCode()));
            }
        }
        // the client went away mid-stream: well within the lease's term (60 s), every replica admits
        for (int i = 0; i < replicas.size(); i++) {
            GatewayClient replica = client(i);
            await("replica " + i + " admits the team after the disconnect")
                    .atMost(Duration.ofSeconds(15))
                    .pollInterval(Duration.ofMillis(100))
                    .until(() -> replica.chat(key, MODEL).status() == 200);
        }
    }

    // ---- the load ----------------------------------------------------------------------------

    /** One answer, as the client saw it. */
    record Answer(int status, String code, String message, String retryAfter, long millis) {

        boolean isFairShareRefusal() {
            return status == 429
                    && "concurrency_limit_exceeded".equals(code)
                    && message != null
                    && message.contains("fair share");
        }

        String outcome() {
            return status == 200 ? "200" : status + " " + code;
        }
    }

    /** Success rate and latency of a set of answers, with the failures counted by outcome. */
    record Stats(int requests, long served, long p50, long p99, Map<String, Long> failures) {

        static Stats of(List<Answer> answers) {
            List<Long> latencies = answers.stream()
                    .filter(a -> a.status() == 200)
                    .map(Answer::millis)
                    .sorted()
                    .toList();
            Map<String, Long> failures = new TreeMap<>();
            for (Answer answer : answers) {
                if (answer.status() != 200) {
                    failures.merge(answer.outcome(), 1L, Long::sum);
                }
            }
            return new Stats(
                    answers.size(), latencies.size(), percentile(latencies, 50), percentile(latencies, 99), failures);
        }

        double successRate() {
            return requests == 0 ? 0 : (double) served / requests;
        }

        private static long percentile(List<Long> sorted, int p) {
            if (sorted.isEmpty()) {
                return -1;
            }
            int index = (int) Math.ceil(p / 100.0 * sorted.size()) - 1;
            return sorted.get(Math.max(0, Math.min(sorted.size() - 1, index)));
        }

        @Override
        public String toString() {
            return String.format(
                    "requests %d, served %d (%.1f %%), p50 %d ms, p99 %d ms",
                    requests, served, 100 * successRate(), p50, p99);
        }
    }

    /** {@code clients} clients of {@code key}, each sending its next request when its answer is in. */
    private static List<Answer> closedLoop(int clients, String key, Duration length) throws InterruptedException {
        long until = System.nanoTime() + length.toNanos();
        List<Answer> answers = Collections.synchronizedList(new ArrayList<>());
        AtomicInteger next = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        for (int c = 0; c < clients; c++) {
            pool.execute(() -> {
                while (System.nanoTime() < until) {
                    answers.add(send(next.getAndIncrement(), key));
                }
            });
        }
        pool.shutdown();
        assertThat(pool.awaitTermination(2, TimeUnit.MINUTES)).isTrue();
        return new ArrayList<>(answers);
    }

    /** Request {@code i} goes to replica {@code i % 3}. */
    private static Answer send(int i, String key) {
        long sent = System.nanoTime();
        Http.Response answer = client(i).chat(key, MODEL);
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sent);
        String message = null;
        if (answer.status() != 200) {
            try {
                message = Http.JSON
                        .readTree(answer.body())
                        .path("error")
                        .path("message")
                        .asText(null);
            } catch (IOException e) {
                message = null;
            }
        }
        return new Answer(
                answer.status(),
                answer.status() == 200 ? null : answer.errorCode(),
                message,
                header(answer, "retry-after"),
                millis);
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static GatewayClient client(int i) {
        return new GatewayClient(replicas.get(i % replicas.size()).baseUrl());
    }

    private static String header(Http.Response answer, String name) {
        for (Map.Entry<String, List<String>> header : answer.headers().entrySet()) {
            if (header.getKey().equalsIgnoreCase(name) && !header.getValue().isEmpty()) {
                return header.getValue().get(0);
            }
        }
        return null;
    }

    /**
     * A slow streamed chat request (the demo's 600 frames 100 ms apart) on a raw connection, open
     * until closed: the client that goes away is this socket closing.
     */
    static final class OpenStream implements AutoCloseable {

        private final Socket socket;
        private final String head;

        private OpenStream(Socket socket, String head) {
            this.socket = socket;
            this.head = head;
        }

        static OpenStream open(ServiceProcess replica, String key) throws IOException {
            URI uri = URI.create(replica.baseUrl());
            Socket socket = new Socket(uri.getHost(), uri.getPort());
            socket.setSoTimeout(30_000);
            byte[] body = ("{\"model\":\"" + MODEL + "\",\"stream\":true,"
                            + "\"demo_stream\":{\"frames\":600,\"interval_ms\":100},"
                            + "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}")
                    .getBytes(StandardCharsets.UTF_8);
            OutputStream out = socket.getOutputStream();
            out.write(("POST /v1/chat/completions HTTP/1.1\r\nhost: " + uri.getHost() + "\r\nauthorization: Bearer "
                            + key + "\r\ncontent-type: application/json\r\ncontent-length: " + body.length
                            + "\r\n\r\n")
                    .getBytes(StandardCharsets.UTF_8));
            out.write(body);
            out.flush();
            InputStream in = socket.getInputStream();
            StringBuilder received = new StringBuilder();
            byte[] buffer = new byte[4096];
            // the head, then the first frame (or the whole answer of a refusal)
            while (!received.toString().contains("data:")
                    && !received.toString().contains("\"error\"")) {
                int read = in.read(buffer);
                if (read < 0) {
                    break;
                }
                received.append(new String(buffer, 0, read, StandardCharsets.UTF_8));
            }
            return new OpenStream(socket, received.toString());
        }

        String head() {
            return head;
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
