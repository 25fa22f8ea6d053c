package io.routegateway.gateway.admission;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.test.junit.QuarkusTest;
import io.routegateway.core.event.AccessKeySnapshot;
import io.routegateway.core.event.CredentialSnapshot;
import io.routegateway.core.event.LeaseEvent;
import io.routegateway.core.event.RequestCompleted;
import io.routegateway.core.event.RuntimeSettingsSnapshot;
import io.routegateway.core.event.SpendSnapshot;
import io.routegateway.core.event.TeamSnapshot;
import io.routegateway.core.event.Topics;
import io.routegateway.core.json.Json;
import io.routegateway.core.limits.BudgetDuration;
import io.routegateway.core.limits.CredentialLimits;
import io.routegateway.core.limits.Leases;
import io.routegateway.core.limits.Limits;
import io.routegateway.gateway.config.GatewayConfig;
import io.routegateway.gateway.support.GatewayTestBase;
import io.routegateway.gateway.support.MockUpstream;
import io.routegateway.gateway.support.Pool;
import io.routegateway.gateway.view.LimitsView;
import io.routegateway.testsupport.Management;
import io.vertx.core.http.HttpServerResponse;
import org.junit.jupiter.api.Test;

import static io.restassured.RestAssured.given;
import static io.routegateway.gateway.support.MockUpstream.ok;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The admission stage against the running gateway: every limit of a key and of its team refuses with
 * 429 in the client protocol's own envelope and the right code, with {@code Retry-After} and the
 * rate-limit headers, before anything reaches an upstream (no call, no outcome event, a usage record
 * of the refusal); every answer to a limited key carries the headers; a client that goes away frees
 * its slot; a credential at its own limits is skipped ({@code credential_full}), not failed.
 */
@QuarkusTest
class AdmissionTests extends GatewayTestBase {

    private static final String ANTHROPIC_BODY =
            "{\"model\":\"m\",\"max_tokens\":16,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
    private static final String GEMINI_BODY = "{\"contents\":[{\"role\":\"user\",\"parts\":[{\"text\":\"hi\"}]}]}";

    @Inject
    LimitsView limitsView;

    @Inject
    GatewayConfig config;

    /** One credential answering every request, in a fresh group; returns the group's id. */
    private String servedGroup(String credential) {
        String group = Pool.uid("g");
        upstream.on(credential, ok());
        install(
                List.of(Pool.credential(credential).serves("m").groups(group).build(box)),
                List.of(Pool.group(group, false)),
                null);
        return group;
    }

    private void installKey(AccessKeySnapshot key) {
        install(List.of(), List.of(), key);
    }

    private void installTeam(TeamSnapshot team) {
        topics().publish(team);
        await().atMost(KAFKA_WAIT)
                .until(() -> limitsView.team(team.teamId()) != null
                        && limitsView.team(team.teamId()).version() == team.version());
    }

    private HttpResponse<String> chatAs(String keyId) {
        return post("/v1/chat/completions", keyId, chat("m"));
    }

    private static Limits rpm(int limit) {
        return new Limits(limit, null, null, null, null);
    }

    // ---- each limit, in each protocol's envelope ----------------------------------------------------

    @Test
    void rpmRefusesInTheOpenAiEnvelopeWithDecreasingHeadersAndRetryAfterAndNeverCallsTheUpstream() {
        String credential = Pool.uid("c");
        String keyId = Pool.uid("k");
        installKey(Pool.key(keyId, List.of(servedGroup(credential)), null, rpm(3)));

        for (int remaining = 2; remaining >= 0; remaining--) {
            HttpResponse<String> admitted = chatAs(keyId);
            assertThat(admitted.statusCode()).isEqualTo(200);
            assertThat(admitted.headers().firstValue("x-ratelimit-limit-requests"))
                    .hasValue("3");
            assertThat(admitted.headers().firstValue("x-ratelimit-remaining-requests"))
                    .hasValue(Integer.toString(remaining));
            assertThat(admitted.headers().firstValue("x-ratelimit-reset-requests"))
                    .isPresent();
            assertThat(admitted.headers().firstValue("x-ratelimit-limit-tokens"))
                    .as("only the pairs whose limit is set")
                    .isEmpty();
        }
        assertThat(upstream.count(credential)).isEqualTo(3);

        HttpResponse<String> refused = chatAs(keyId);

        assertThat(refused.statusCode()).isEqualTo(429);
        JsonNode error = parse(refused.body()).get("error");
        assertThat(error.get("code").asText()).isEqualTo("rate_limit_exceeded");
        assertThat(error.get("type").asText()).isEqualTo("rate_limit_error");
        assertThat(error.get("message").asText()).contains("requests-per-minute");
        assertThat(Long.parseLong(refused.headers().firstValue("retry-after").orElseThrow()))
                .isBetween(1L, 60L);
        assertThat(refused.headers().firstValue("x-ratelimit-remaining-requests"))
                .hasValue("0");
        assertThat(upstream.count(credential)).as("no upstream call").isEqualTo(3);
        RequestCompleted record = usage(keyId, list -> list.stream().anyMatch(r -> r.status() == 429)).stream()
                .filter(r -> r.status() == 429)
                .findFirst()
                .orElseThrow();
        assertThat(record.reasonCode()).isEqualTo("rate_limit_exceeded");
        assertThat(record.credentialId()).isNull();
        assertThat(record.attempts()).isZero();
    }

    @Test
    void anthropicClientsGetRateLimitErrorWithTheCode() {
        String keyId = Pool.uid("k");
        installKey(Pool.key(keyId, List.of(servedGroup(Pool.uid("c"))), null, rpm(1)));
        assertThat(post("/v1/messages", keyId, ANTHROPIC_BODY).statusCode()).isEqualTo(200);

        HttpResponse<String> refused = post("/v1/messages", keyId, ANTHROPIC_BODY);

        assertThat(refused.statusCode()).isEqualTo(429);
        JsonNode body = parse(refused.body());
        assertThat(body.get("type").asText()).isEqualTo("error");
        assertThat(body.at("/error/type").asText()).isEqualTo("rate_limit_error");
        assertThat(body.at("/error/code").asText()).isEqualTo("rate_limit_exceeded");
        assertThat(refused.headers().firstValue("retry-after")).isPresent();
        assertThat(refused.headers().firstValue("x-ratelimit-limit-requests")).hasValue("1");
    }

    @Test
    void geminiClientsGetResourceExhaustedWithTheCodeAsReason() {
        String keyId = Pool.uid("k");
        installKey(Pool.key(keyId, List.of(servedGroup(Pool.uid("c"))), null, rpm(1)));
        String path = "/v1beta/models/m:generateContent";
        assertThat(post(path, keyId, GEMINI_BODY).statusCode()).isEqualTo(200);

        HttpResponse<String> refused = post(path, keyId, GEMINI_BODY);

        assertThat(refused.statusCode()).isEqualTo(429);
        JsonNode error = parse(refused.body()).get("error");
        assertThat(error.get("code").asInt()).isEqualTo(429);
        assertThat(error.get("status").asText()).isEqualTo("RESOURCE_EXHAUSTED");
        assertThat(error.at("/details/0/reason").asText()).isEqualTo("rate_limit_exceeded");
        assertThat(refused.headers().firstValue("retry-after")).isPresent();
    }

    @Test
    void tpmHoldsTheReservationUntilTheCloseSettlesTheRealCount() {
        String credential = Pool.uid("c");
        String keyId = Pool.uid("k");
        installKey(Pool.key(keyId, List.of(servedGroup(credential)), null, new Limits(null, 3000L, null, null, null)));
        // reserves 2,500 output tokens plus the prompt; the answer settles 18 (11 in, 7 out)
        String big = "{\"model\":\"m\",\"max_tokens\":2500,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";

        HttpResponse<String> first = post("/v1/chat/completions", keyId, big);
        assertThat(first.statusCode()).isEqualTo(200);
        assertThat(first.headers().firstValue("x-ratelimit-limit-tokens")).hasValue("3000");
        long afterFirst = Long.parseLong(
                first.headers().firstValue("x-ratelimit-remaining-tokens").orElseThrow());
        assertThat(afterFirst).as("the reservation is counted while it runs").isLessThan(500);

        HttpResponse<String> second = post("/v1/chat/completions", keyId, big);
        assertThat(second.statusCode())
                .as("18 settled + 2,500 reserved fit in 3,000")
                .isEqualTo(200);

        HttpResponse<String> third = post(
                "/v1/chat/completions",
                keyId,
                "{\"model\":\"m\",\"max_tokens\":2990,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");
        assertThat(third.statusCode()).as("36 settled + 2,990 reserved do not").isEqualTo(429);
        assertThat(parse(third.body()).at("/error/code").asText()).isEqualTo("rate_limit_exceeded");
        assertThat(parse(third.body()).at("/error/message").asText()).contains("tokens-per-minute");
        assertThat(third.headers().firstValue("retry-after")).isPresent();
        assertThat(upstream.count(credential)).isEqualTo(2);
    }

    @Test
    void aSpentBudgetOfItsWindowIsBudgetExceededUntilTheWindowEnds() {
        String credential = Pool.uid("c");
        String keyId = Pool.uid("k");
        installKey(Pool.key(
                keyId,
                List.of(servedGroup(credential)),
                null,
                new Limits(null, null, null, BigDecimal.ONE, BudgetDuration.DAY)));
        assertThat(chatAs(keyId).statusCode()).as("nothing spent yet").isEqualTo(200);

        Instant now = clock.instant();
        ZoneId zone = ZoneId.systemDefault();
        Instant end = BudgetDuration.DAY.windowEnd(now, zone);
        topics().publish(new SpendSnapshot(
                SpendSnapshot.KEY,
                keyId,
                1,
                BudgetDuration.DAY.windowStart(now, zone),
                end,
                1_000_000,
                1,
                11,
                7,
                now,
                now));
        await().atMost(KAFKA_WAIT).until(() -> limitsView.spend(SpendSnapshot.KEY, keyId) != null);

        HttpResponse<String> refused = chatAs(keyId);

        assertThat(refused.statusCode()).isEqualTo(429);
        assertThat(parse(refused.body()).at("/error/code").asText()).isEqualTo("budget_exceeded");
        long retryAfter =
                Long.parseLong(refused.headers().firstValue("retry-after").orElseThrow());
        assertThat(retryAfter)
                .as("until the day's window ends")
                .isBetween(1L, Duration.between(now, end).toSeconds() + 1);
        assertThat(upstream.count(credential)).isEqualTo(1);
    }

    @Test
    void aBudgetHoldsAgainstTheCostOfClosedRequestsPricedByTheRuntimeSettings() throws Exception {
        String credential = Pool.uid("c");
        String keyId = Pool.uid("k");
        installKey(Pool.key(
                keyId,
                List.of(servedGroup(credential)),
                null,
                new Limits(null, null, null, new BigDecimal("0.001"), null)));
        // 18 tokens at 100 USD per million are 1,800 micro-USD: more than the whole budget of 1,000
        publishSettings(Json.MAPPER.readTree("{\"m\":{\"input_per_million\":100,\"output_per_million\":100}}"));
        try {
            assertThat(chatAs(keyId).statusCode()).isEqualTo(200);
            HttpResponse<String> refused = chatAs(keyId);
            assertThat(refused.statusCode()).isEqualTo(429);
            assertThat(parse(refused.body()).at("/error/code").asText()).isEqualTo("budget_exceeded");
            assertThat(upstream.count(credential)).isEqualTo(1);
        } finally {
            publishSettings(null);
        }
    }

    /** Above any version state-service's sequence hands out in a test run (as RuntimeSettingsTests). */
    private void publishSettings(JsonNode prices) {
        long version = System.currentTimeMillis() * 1000 + 500;
        topics().publish(new RuntimeSettingsSnapshot(
                version,
                0,
                config.affinity().ttl().toSeconds(),
                config.affinity().capacity(),
                Instant.now(),
                prices));
        await().atMost(KAFKA_WAIT)
                .until(() -> views.settings() != null && views.settings().version() >= version);
    }

    @Test
    void aBudgetOfZeroAdmitsNothingAndARefusalTouchesNoCredential() {
        String credential = Pool.uid("c");
        String keyId = Pool.uid("k");
        String group = servedGroup(credential);
        CredentialSnapshot before = views.pool().credential(credential).orElseThrow();
        installKey(Pool.key(keyId, List.of(group), null, new Limits(null, null, null, BigDecimal.ZERO, null)));

        HttpResponse<String> refused = chatAs(keyId);

        assertThat(refused.statusCode()).isEqualTo(429);
        assertThat(parse(refused.body()).at("/error/code").asText()).isEqualTo("budget_exceeded");
        assertThat(refused.headers().firstValue("retry-after"))
                .as("a lifetime budget never frees")
                .isEmpty();
        assertThat(upstream.count(credential)).isZero();
        assertThat(views.pool().credential(credential).orElseThrow()).isEqualTo(before);
        assertThat(topics().read(Topics.OUTCOMES, credential::equals, list -> false, Duration.ofSeconds(3)))
                .as("no outcome event")
                .isEmpty();
    }

    @Test
    void aTeamsLimitHoldsOverAllItsKeysAndGoesWithItsTombstone() {
        String teamId = Pool.uid("t");
        String group = servedGroup(Pool.uid("c"));
        installTeam(Pool.team(teamId, rpm(2), 1));
        String first = Pool.uid("k");
        String second = Pool.uid("k");
        installKey(Pool.key(first, List.of(group), teamId, Limits.NONE));
        installKey(Pool.key(second, List.of(group), teamId, rpm(100)));

        assertThat(chatAs(first).statusCode()).isEqualTo(200);
        HttpResponse<String> admitted = chatAs(second);
        assertThat(admitted.statusCode()).isEqualTo(200);
        assertThat(admitted.headers().firstValue("x-ratelimit-limit-requests"))
                .as("the tighter of the key's and the team's")
                .hasValue("2");
        HttpResponse<String> refused = chatAs(first);
        assertThat(refused.statusCode()).isEqualTo(429);
        assertThat(parse(refused.body()).at("/error/message").asText()).contains("team");
        RequestCompleted record = usage(first, list -> list.stream().anyMatch(r -> r.status() == 429)).stream()
                .filter(r -> r.status() == 429)
                .findFirst()
                .orElseThrow();
        assertThat(record.teamId()).isEqualTo(teamId);

        topics().tombstone(Topics.TEAMS, teamId);
        await().atMost(KAFKA_WAIT).until(() -> limitsView.team(teamId) == null);
        assertThat(chatAs(first).statusCode())
                .as("the team's limits went with it")
                .isEqualTo(200);
    }

    @Test
    void anUnlimitedKeyGetsNoRateLimitHeadersAndItsUsageCarriesItsTeam() {
        String credential = Pool.uid("c");
        String keyId = Pool.uid("k");
        String teamId = Pool.uid("t");
        installTeam(Pool.team(teamId, Limits.NONE, 3));
        installKey(Pool.key(keyId, List.of(servedGroup(credential)), teamId, Limits.NONE));

        HttpResponse<String> response = chatAs(keyId);

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().map().keySet()).noneMatch(name -> name.startsWith("x-ratelimit"));
        assertThat(usage(credential, list -> !list.isEmpty()).get(0).teamId()).isEqualTo(teamId);
    }

    // ---- parallel requests, disconnects and credential limits ------------------------------------

    @Test
    void parallelRefusesWhileAStreamRunsAndAClientDisconnectFreesTheSlot() throws Exception {
        String credential = Pool.uid("c");
        String keyId = Pool.uid("k");
        String group = servedGroup(credential);
        upstream.on(credential, endlessStream());
        installKey(Pool.key(keyId, List.of(group), null, new Limits(null, null, 1, null, null)));

        try (OpenStream stream = OpenStream.open(gateway.getPort(), keyId)) {
            assertThat(stream.head()).startsWith("HTTP/1.1 200");
            HttpResponse<String> refused = chatAs(keyId);
            assertThat(refused.statusCode()).isEqualTo(429);
            assertThat(parse(refused.body()).at("/error/code").asText()).isEqualTo("concurrency_limit_exceeded");
            assertThat(refused.headers().firstValue("retry-after")).hasValue("1");
        }
        upstream.on(credential, ok());
        // the disconnect closes the lease; the next request gets the slot
        await().atMost(KAFKA_WAIT).until(() -> chatAs(keyId).statusCode() == 200);
        RequestCompleted gone =
                usage(credential, list -> list.stream().anyMatch(RequestCompleted::clientDisconnected)).stream()
                        .filter(RequestCompleted::clientDisconnected)
                        .findFirst()
                        .orElseThrow();
        assertThat(gone.stream()).isTrue();
    }

    @Test
    void aPeersBatchOfLeasesCountsHereEntryByEntryAndABadEntrySkipsOnlyItself() {
        String credential = Pool.uid("c");
        String keyId = Pool.uid("k");
        installKey(Pool.key(keyId, List.of(servedGroup(credential)), null, new Limits(null, null, 1, null, null)));
        String peer = "peer-" + Pool.uid("r");
        LeaseEvent held = Leases.openRequest(
                java.util.UUID.randomUUID(), peer, keyId, null, Instant.now(), Duration.ofSeconds(60), 0);

        // a peer's batch: an entry that is not an object and an implausible one around its open lease
        topics().withHeader(
                        Topics.ADMISSIONS,
                        peer,
                        "[7,{\"lease_id\":null}," + Json.write(held) + "]",
                        Topics.ORIGIN_HEADER,
                        peer);

        await().atMost(KAFKA_WAIT).until(() -> chatAs(keyId).statusCode() == 429);
        HttpResponse<String> refused = chatAs(keyId);
        assertThat(parse(refused.body()).at("/error/code").asText()).isEqualTo("concurrency_limit_exceeded");

        topics().withHeader(
                        Topics.ADMISSIONS,
                        peer,
                        "[" + Json.write(Leases.close(held, Instant.now(), 0L, null)) + "]",
                        Topics.ORIGIN_HEADER,
                        peer);
        await().atMost(KAFKA_WAIT).until(() -> chatAs(keyId).statusCode() == 200);
    }

    @Test
    void aStreamCarriesTheRateLimitHeadersOnItsHead() throws Exception {
        String credential = Pool.uid("c");
        String keyId = Pool.uid("k");
        String group = servedGroup(credential);
        upstream.on(credential, endlessStream());
        installKey(Pool.key(keyId, List.of(group), null, rpm(5)));

        try (OpenStream stream = OpenStream.open(gateway.getPort(), keyId)) {
            assertThat(stream.head().toLowerCase())
                    .contains("x-ratelimit-limit-requests: 5")
                    .contains("x-ratelimit-remaining-requests: 4")
                    .contains("x-ratelimit-reset-requests:");
        }
    }

    @Test
    void aCredentialAtItsOwnParallelLimitIsSkippedNotFailedAndServesAgainOnceFree() throws Exception {
        String full = Pool.uid("a");
        String other = Pool.uid("b");
        String group = Pool.uid("g");
        String keyId = Pool.uid("k");
        upstream.on(full, endlessStream());
        upstream.on(other, ok());
        install(
                List.of(
                        Pool.credential(full)
                                .serves("m")
                                .groups(group)
                                .priority(0)
                                .limits(new CredentialLimits(null, 1))
                                .build(box),
                        Pool.credential(other)
                                .serves("m")
                                .groups(group)
                                .priority(1)
                                .build(box)),
                List.of(Pool.group(group, false)),
                Pool.key(keyId, List.of(group)));

        try (OpenStream stream = OpenStream.open(gateway.getPort(), keyId)) {
            assertThat(stream.head()).startsWith("HTTP/1.1 200");
            HttpResponse<String> skipped = chatAs(keyId);
            assertThat(skipped.statusCode()).isEqualTo(200);
            assertThat(upstream.count(other))
                    .as("the full credential was skipped")
                    .isEqualTo(1);
            assertThat(upstream.count(full)).isEqualTo(1);
            CredentialSnapshot held = views.pool().credential(full).orElseThrow();
            assertThat(held.account().transientFailureCount())
                    .as("full is no failure")
                    .isZero();
            assertThat(held.account().cooldownUntil()).isNull();
        }
        upstream.on(full, ok());
        await().atMost(KAFKA_WAIT).until(() -> {
            chatAs(keyId);
            return upstream.count(full) == 2;
        });
    }

    @Test
    void aRequestThatFindsOnlyFullCredentialsWaitsForASlotInsteadOfFailing() throws Exception {
        String credential = Pool.uid("c");
        String group = Pool.uid("g");
        String keyId = Pool.uid("k");
        upstream.on(credential, endlessStream());
        install(
                List.of(Pool.credential(credential)
                        .serves("m")
                        .groups(group)
                        .limits(new CredentialLimits(null, 1))
                        .build(box)),
                List.of(Pool.group(group, false)),
                Pool.key(keyId, List.of(group)));
        double started = slotWaits("started");

        CompletableFuture<HttpResponse<String>> waiting;
        try (OpenStream stream = OpenStream.open(gateway.getPort(), keyId)) {
            assertThat(stream.head()).startsWith("HTTP/1.1 200");
            upstream.on(credential, ok());
            waiting = CompletableFuture.supplyAsync(() -> chatAs(keyId));
            await().atMost(KAFKA_WAIT).until(() -> slotWaits("started") > started);
            assertThat(waiting).as("waiting for the slot").isNotDone();
        }
        // the stream's client went away: its slot goes to the waiting request
        HttpResponse<String> served = waiting.get(30, TimeUnit.SECONDS);
        assertThat(served.statusCode()).as(served.body()).isEqualTo(200);
        assertThat(upstream.count(credential)).isEqualTo(2);
    }

    /** {@code gateway_admission_slot_waits_total{outcome}} as the metrics endpoint shows it. */
    private static double slotWaits(String outcome) {
        String prefix = "gateway_admission_slot_waits_total{outcome=\"" + outcome + "\"}";
        return given().get(Management.url("/metrics"))
                .asString()
                .lines()
                .filter(line -> line.startsWith(prefix))
                .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
                .findFirst()
                .orElse(0);
    }

    @Test
    void aContendedPoolRefusesTheTeamAtItsFairShare() throws Exception {
        String credential = Pool.uid("c");
        String group = Pool.uid("g");
        String teamId = Pool.uid("t");
        String keyId = Pool.uid("k");
        upstream.on(credential, endlessStream());
        install(
                List.of(Pool.credential(credential)
                        .serves("m")
                        .groups(group)
                        .limits(new CredentialLimits(null, 1))
                        .build(box)),
                List.of(Pool.group(group, false)),
                null);
        installTeam(Pool.team(teamId, Limits.NONE, 1));
        installKey(Pool.key(keyId, List.of(group), teamId, Limits.NONE));

        try (OpenStream stream = OpenStream.open(gateway.getPort(), keyId)) {
            assertThat(stream.head()).startsWith("HTTP/1.1 200");
            HttpResponse<String> refused = chatAs(keyId);
            assertThat(refused.statusCode()).isEqualTo(429);
            assertThat(parse(refused.body()).at("/error/code").asText()).isEqualTo("concurrency_limit_exceeded");
            assertThat(parse(refused.body()).at("/error/message").asText()).contains("fair share");
        }
        assertThat(given().get(Management.url("/metrics")).asString())
                .contains("gateway_admission_refusals_total{code=\"concurrency_limit_exceeded\",scope=\"fair_share\"}")
                .contains("gateway_admission_lag_seconds");
    }

    // ---- helpers -------------------------------------------------------------------------------

    /** A stream that sends one data frame, then a comment every 300 ms until the gateway goes away. */
    private static MockUpstream.Behaviour endlessStream() {
        return (request, body, number) -> {
            HttpServerResponse response = request.response();
            response.setChunked(true).putHeader("content-type", "text/event-stream");
            response.write("data: {\"choices\":[{\"delta\":{\"content\":\"a\"}}]}\n\n");
            long timer = MockUpstream.get().vertx().setPeriodic(300, id -> {
                if (!response.closed() && !response.ended()) {
                    response.write(": still here\n\n");
                }
            });
            response.closeHandler(closed -> MockUpstream.get().vertx().cancelTimer(timer));
        };
    }

    /**
     * A streamed chat request on a raw connection, open until closed: the client that goes away is
     * this socket closing.
     */
    static final class OpenStream implements AutoCloseable {

        private final Socket socket;
        private final String head;

        private OpenStream(Socket socket, String head) {
            this.socket = socket;
            this.head = head;
        }

        static OpenStream open(int port, String keyId) throws IOException {
            Socket socket = new Socket("127.0.0.1", port);
            socket.setSoTimeout(30_000);
            byte[] body = "{\"model\":\"m\",\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}"
                    .getBytes(StandardCharsets.UTF_8);
            OutputStream out = socket.getOutputStream();
            out.write(("POST /v1/chat/completions HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: Bearer "
                            + Pool.plaintext(keyId) + "\r\ncontent-type: application/json\r\ncontent-length: "
                            + body.length + "\r\n\r\n")
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
