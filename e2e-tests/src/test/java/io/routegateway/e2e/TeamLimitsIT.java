package io.routegateway.e2e;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import java.util.function.IntSupplier;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.routegateway.core.access.AccessKeys;
import io.routegateway.core.crypto.StateSignature;
import io.routegateway.core.crypto.StateSigner;
import io.routegateway.core.event.AccessKeySnapshot;
import io.routegateway.core.event.TeamSnapshot;
import io.routegateway.core.event.Topics;
import io.routegateway.core.json.Json;
import io.routegateway.core.limits.Limits;
import io.routegateway.demo.Behaviour;
import io.routegateway.demo.Behaviour.Mode;
import io.routegateway.e2e.support.EndToEndTest;
import io.routegateway.e2e.support.GatewayClient;
import io.routegateway.e2e.support.Http;
import io.routegateway.e2e.support.Pool;
import io.routegateway.e2e.support.RouteSystem;
import io.routegateway.e2e.support.ServiceProcess;
import io.routegateway.e2e.support.TopicRecords;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Team and key limits hold cluster-wide: three gateway replicas, clients sending round-robin over
 * them, {@value #CLIENTS} at once. For each of rpm, tpm, parallel requests and budget the test
 * MEASURES how far past the limit the cluster admitted (the replicas share their leases on
 * route.admissions, so each admits on the others' counts one Kafka hop late) and prints it as {@code
 * E2E-SUMMARY TeamLimitsIT <limit>: ...}; it asserts the overshoot stays within {@link
 * #OVERSHOOT_BOUND} requests — a few requests, never a multiple of the limit (without sharing, three
 * replicas would admit three times it). Meanwhile a key of another team without limits is never
 * refused, and no refusal changes a credential's state.
 *
 * <p>The limited keys and their teams are published as state-service publishes them (signed
 * {@code access-key.v1} and {@code team.v1} on the state topics), next to a pool made through the
 * admin API; the budget is priced by the admin API's {@code model_prices}.
 */
class TeamLimitsIT extends EndToEndTest {

    private static final String MODEL = "tl-m";
    private static final String UPSTREAM = "tl-u";
    /** Concurrent clients, spread evenly over the replicas. */
    private static final int CLIENTS = 9;
    /**
     * The documented bound of the overshoot, in requests: the requests the other replicas may have
     * admitted for the last slots within one propagation of their leases (the publish window,
     * {@code gateway.admission.publish-window}, 0 by default, and a Kafka hop) — at most their clients in
     * flight ({@value #CLIENTS} × 2/3 = 6) — and, for a budget, the requests already running when it
     * ran out (their cost is known only at their close: up to {@value #CLIENTS} − 1 more).
     */
    private static final int OVERSHOOT_BOUND = 6;

    private static final int BUDGET_OVERSHOOT_BOUND = OVERSHOOT_BOUND + CLIENTS - 1;

    private static List<ServiceProcess> replicas;
    private static Pool pool;
    private static String group;
    private static String unlimitedKey;
    private static StateSigner signer;
    private static String suffix;

    @BeforeAll
    static void threeReplicasAndAPool() {
        replicas = system.gatewayReplicas(3);
        pool = Pool.create(system, replicas);
        String first = pool.credential("tl1", c -> c.map(MODEL, UPSTREAM));
        String second = pool.credential("tl2", c -> c.map(MODEL, UPSTREAM));
        group = pool.group("tl", first, second);
        unlimitedKey = pool.accessKey(group);
        pool.awaitVisible(unlimitedKey);
        signer = StateSigner.fromBase64Pkcs8(RouteSystem.SIGNING_KEY_ID, RouteSystem.SIGNING_PRIVATE_KEY);
        suffix = Long.toHexString(System.nanoTime());
    }

    @AfterAll
    static void healthyAgain() {
        for (String credential : pool.credentials()) {
            system.demo().setBehaviour(credential, Behaviour.HEALTHY);
        }
    }

    @Test
    void requestsPerMinuteHoldClusterWideAndAnotherTeamsUnlimitedKeyIsUnaffected() throws Exception {
        int limit = 30;
        String key = limitedKey("rpm", null, new Limits(limit, null, null, null, null));

        // the unlimited key of no team runs next to the burst, on every replica
        AtomicInteger unlimitedRefused = new AtomicInteger();
        AtomicInteger unlimitedServed = new AtomicInteger();
        Thread neighbour = new Thread(() -> {
            for (int i = 0; i < 30; i++) {
                Http.Response answer = client(i).chat(unlimitedKey, MODEL);
                (answer.status() == 200 ? unlimitedServed : unlimitedRefused).incrementAndGet();
            }
        });
        neighbour.start();
        List<Answer> answers = burst(120, i -> client(i).chat(key, MODEL));
        neighbour.join(TimeUnit.MINUTES.toMillis(2));

        long admitted = admitted(answers);
        long overshoot = Math.max(0, admitted - limit);
        summary("rpm", limit, admitted, overshoot, answers);
        assertRefusalsAre(answers, "rate_limit_exceeded");
        assertThat(admitted).as("at least the limit is served").isGreaterThanOrEqualTo(limit);
        assertThat(overshoot).isLessThanOrEqualTo(OVERSHOOT_BOUND);
        assertThat(unlimitedRefused).as("another team's key without limits").hasValue(0);
        assertThat(unlimitedServed).hasValue(30);
    }

    @Test
    void tokensPerMinuteHoldClusterWide() throws Exception {
        long limit = 1000;
        String key = limitedKey("tpm", null, new Limits(null, limit, null, null, null));
        // no output reserved: a request reserves its prompt (a quarter of its ~100 bytes) and settles
        // the demo's 12 + 8 tokens
        ObjectNode body = Http.JSON.createObjectNode().put("model", MODEL).put("max_tokens", 0);
        body.putArray("messages").addObject().put("role", "user").put("content", "Say hello");
        long reservation = body.toString().getBytes(StandardCharsets.UTF_8).length / 4;
        long settled = 20;
        // the last request admitted serially: settled tokens so far + its reservation within the limit
        long serial = (limit - reservation) / settled + 1;

        List<Answer> answers = burst(
                150,
                i -> Http.send(
                        "POST",
                        replicas.get(i % replicas.size()).baseUrl() + "/v1/chat/completions",
                        Map.of("authorization", "Bearer " + key),
                        body.toString()));

        long admitted = admitted(answers);
        long overshoot = Math.max(0, admitted - serial);
        summary(
                "tpm",
                limit,
                admitted,
                overshoot,
                answers,
                "tokens settled " + admitted * settled + " of " + limit + " (serially " + serial + " requests)");
        assertRefusalsAre(answers, "rate_limit_exceeded");
        assertThat(overshoot).isLessThanOrEqualTo(OVERSHOOT_BOUND);
        assertThat(admitted * settled).as("never a multiple of the limit").isLessThan(2 * limit);
    }

    @Test
    void parallelRequestsOfATeamHoldClusterWide() throws Exception {
        int limit = 6;
        String team = "tl-team-" + suffix;
        publish(
                Topics.TEAMS,
                team,
                new TeamSnapshot(
                        team, 1, "e2e team", new Limits(1_000_000, null, limit, null, null), 1, Instant.now()));
        String first = limitedKey("par1", team, Limits.NONE);
        String second = limitedKey("par2", team, Limits.NONE);
        // the team's limits are in every view once its rpm shows in the headers
        for (int i = 0; i < replicas.size(); i++) {
            GatewayClient replica = client(i);
            await("team visible to replica " + i)
                    .atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> "1000000".equals(header(replica.chat(first, MODEL), "x-ratelimit-limit-requests")));
        }
        for (String credential : pool.credentials()) {
            system.demo().setBehaviour(credential, new Behaviour(Mode.HEALTHY, 200, null, 1500, 0));
        }
        List<Answer> answers;
        try {
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(8);
            answers = burstUntil(until, i -> client(i).chat(i % 2 == 0 ? first : second, MODEL));
        } finally {
            for (String credential : pool.credentials()) {
                system.demo().setBehaviour(credential, Behaviour.HEALTHY);
            }
        }

        int peak = peakConcurrency(answers);
        long overshoot = Math.max(0, peak - limit);
        summary("parallel", limit, admitted(answers), overshoot, answers, "peak in flight " + peak);
        assertRefusalsAre(answers, "concurrency_limit_exceeded");
        assertThat(peak).as("the limit is used").isGreaterThanOrEqualTo(limit - 1);
        assertThat(overshoot).isLessThanOrEqualTo(OVERSHOOT_BOUND);
    }

    @Test
    void aBudgetHoldsClusterWideAndNoRefusalChangesACredential() throws Exception {
        // the demo settles 12 + 8 tokens: at 50 USD per million each request costs 1,000 micro-USD
        ObjectNode prices = Http.JSON.createObjectNode();
        prices.putObject("model_prices")
                .putObject(UPSTREAM)
                .put("input_per_million", 50)
                .put("output_per_million", 50);
        system.admin().expect(200, "PATCH", "/settings", prices);
        int affordable = 20;
        String key = limitedKey("budget", null, new Limits(null, null, null, new BigDecimal("0.02"), null));
        awaitPricedEverywhere();

        List<Answer> answers = burst(80, i -> client(i).chat(key, MODEL));

        long admitted = admitted(answers);
        long overshoot = Math.max(0, admitted - affordable);
        summary("budget", affordable, admitted, overshoot, answers, "spent " + admitted * 1000 + " of 20000 micro-USD");
        assertRefusalsAre(answers, "budget_exceeded");
        assertThat(admitted).isGreaterThanOrEqualTo(affordable);
        assertThat(overshoot).isLessThanOrEqualTo(BUDGET_OVERSHOOT_BOUND);

        for (String credential : pool.credentials()) {
            Map<String, Object> row = system.database().credential(credential);
            assertThat(row.get("status")).as("%s status", credential).isEqualTo("ok");
            assertThat(integer(row, "transient_failure_count")).as(credential).isZero();
            assertThat(row.get("cooldown_until")).as(credential).isNull();
            assertThat(system.database().models(credential))
                    .as("%s model rows", credential)
                    .isEmpty();
        }
    }

    // ---- the load ----------------------------------------------------------------------------

    /** One answer and when its request was in flight, as the client saw it. */
    record Answer(int status, String code, String retryAfter, long sentNanos, long answeredNanos) {}

    private static GatewayClient client(int i) {
        return new GatewayClient(replicas.get(i % replicas.size()).baseUrl());
    }

    /** {@code total} requests from {@value #CLIENTS} clients; request {@code i} goes to replica {@code i % 3}. */
    private static List<Answer> burst(int total, IntFunction<Http.Response> request) throws InterruptedException {
        AtomicInteger next = new AtomicInteger();
        return run(
                () -> {
                    int i = next.getAndIncrement();
                    return i < total ? i : -1;
                },
                request);
    }

    /** Requests from {@value #CLIENTS} clients until {@code untilNanos}. */
    private static List<Answer> burstUntil(long untilNanos, IntFunction<Http.Response> request)
            throws InterruptedException {
        AtomicInteger next = new AtomicInteger();
        return run(() -> System.nanoTime() < untilNanos ? next.getAndIncrement() : -1, request);
    }

    private static List<Answer> run(IntSupplier nextIndex, IntFunction<Http.Response> request)
            throws InterruptedException {
        List<Answer> answers = Collections.synchronizedList(new ArrayList<>());
        ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
        for (int c = 0; c < CLIENTS; c++) {
            clients.execute(() -> {
                for (int i = nextIndex.getAsInt(); i >= 0; i = nextIndex.getAsInt()) {
                    long sent = System.nanoTime();
                    Http.Response answer = request.apply(i);
                    answers.add(new Answer(
                            answer.status(),
                            answer.status() == 200 ? null : answer.errorCode(),
                            header(answer, "retry-after"),
                            sent,
                            System.nanoTime()));
                }
            });
        }
        clients.shutdown();
        assertThat(clients.awaitTermination(3, TimeUnit.MINUTES)).isTrue();
        return new ArrayList<>(answers);
    }

    private static long admitted(List<Answer> answers) {
        return answers.stream().filter(a -> a.status() == 200).count();
    }

    /** Every answer is 200 or the limit's 429 with its code and, unless a lifetime budget refused it, a Retry-After. */
    private static void assertRefusalsAre(List<Answer> answers, String code) {
        assertThat(answers).allSatisfy(answer -> {
            if (answer.status() != 200) {
                assertThat(answer.status()).as("%s", answer).isEqualTo(429);
                assertThat(answer.code()).as("%s", answer).isEqualTo(code);
                if (!code.equals("budget_exceeded")) {
                    // a lifetime budget (the budget case's) never frees, so it names no Retry-After
                    assertThat(answer.retryAfter()).as("%s", answer).isNotNull();
                }
            }
        });
        assertThat(answers).as("some were refused").anyMatch(answer -> answer.status() == 429);
    }

    /**
     * The most admitted requests in flight at once, from the client's side: each interval shrunk by
     * 100 ms at both ends, so a request that ends as the next one starts (the slot handed over
     * within the same millisecond) is not counted twice; the upstream holds each one 1.5 s.
     */
    private static int peakConcurrency(List<Answer> answers) {
        long margin = TimeUnit.MILLISECONDS.toNanos(100);
        List<long[]> edges = new ArrayList<>();
        for (Answer answer : answers) {
            if (answer.status() == 200 && answer.answeredNanos() - answer.sentNanos() > 2 * margin) {
                edges.add(new long[] {answer.sentNanos() + margin, 1});
                edges.add(new long[] {answer.answeredNanos() - margin, -1});
            }
        }
        edges.sort((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
        int now = 0;
        int peak = 0;
        for (long[] edge : edges) {
            now += (int) edge[1];
            peak = Math.max(peak, now);
        }
        return peak;
    }

    private static void summary(
            String limit, long value, long admitted, long overshoot, List<Answer> answers, String... more) {
        long refused = answers.stream().filter(a -> a.status() == 429).count();
        long other = answers.size() - admitted - refused;
        System.out.printf(
                "E2E-SUMMARY TeamLimitsIT %s: limit %d, replicas %d, clients %d, requests %d, admitted %d, refused %d,"
                        + " other %d, overshoot %d (bound %d)%s%n",
                limit,
                value,
                replicas.size(),
                CLIENTS,
                answers.size(),
                admitted,
                refused,
                other,
                overshoot,
                limit.equals("budget") ? BUDGET_OVERSHOOT_BOUND : OVERSHOOT_BOUND,
                more.length == 0 ? "" : "; " + String.join("; ", more));
    }

    private static String header(Http.Response answer, String name) {
        for (Map.Entry<String, List<String>> header : answer.headers().entrySet()) {
            if (header.getKey().equalsIgnoreCase(name) && !header.getValue().isEmpty()) {
                return header.getValue().get(0);
            }
        }
        return null;
    }

    // ---- keys and teams, as state-service publishes them ---------------------------------------------

    /** A key of {@code team} (null = none) with {@code limits}, on the test's group; its plaintext. */
    private static String limitedKey(String role, String team, Limits limits) throws Exception {
        String id = "tlk-" + role + "-" + suffix;
        String plaintext = "rk-e2e-" + role + "-" + suffix;
        AccessKeySnapshot key = new AccessKeySnapshot(
                id,
                1,
                "e2e " + role,
                AccessKeys.hash(plaintext),
                "rk-e2e",
                true,
                null,
                List.of(),
                List.of(),
                List.of(group),
                Instant.now(),
                team,
                limits);
        publish(Topics.ACCESS_KEYS, id, key);
        for (int i = 0; i < replicas.size(); i++) {
            GatewayClient replica = client(i);
            await("key " + id + " visible to replica " + i)
                    .atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> replica.models(plaintext).status() == 200);
        }
        return plaintext;
    }

    /**
     * The prices reach the gateways with state-service's settings snapshot: a probe key with a budget
     * of one request shows it (its second request is refused once the first was priced).
     */
    private static void awaitPricedEverywhere() throws Exception {
        for (int i = 0; i < replicas.size(); i++) {
            GatewayClient replica = client(i);
            String probe =
                    limitedKey("price" + i, null, new Limits(null, null, null, new BigDecimal("0.000001"), null));
            assertThat(replica.chat(probe, MODEL).status()).isEqualTo(200);
            await("prices visible to replica " + i)
                    .atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> replica.chat(probe, MODEL).status() == 429);
        }
    }

    private static void publish(String topic, String key, Object value) throws Exception {
        String json = Json.MAPPER.writeValueAsString(value);
        List<Header> headers = List.of(
                new RecordHeader(StateSignature.KEY_ID_HEADER, signer.keyId().getBytes(StandardCharsets.UTF_8)),
                new RecordHeader(
                        StateSignature.SIGNATURE_HEADER,
                        signer.sign(topic, key, json).getBytes(StandardCharsets.UTF_8)));
        try (KafkaProducer<String, String> producer =
                TopicRecords.producer(system.broker().bootstrapServers())) {
            producer.send(new ProducerRecord<>(topic, null, key, json, headers)).get(30, TimeUnit.SECONDS);
        }
    }
}
