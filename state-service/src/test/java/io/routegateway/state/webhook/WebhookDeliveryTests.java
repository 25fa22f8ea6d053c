package io.routegateway.state.webhook;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import jakarta.inject.Inject;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.scheduler.Scheduler;
import io.quarkus.test.junit.QuarkusTest;
import io.routegateway.core.crypto.SecretBox;
import io.routegateway.core.event.CredentialEvent;
import io.routegateway.core.json.Json;
import io.routegateway.core.webhook.WebhookSignature;
import io.routegateway.state.outcome.ApplyResult;
import io.routegateway.state.outcome.CredentialEventService;
import io.routegateway.state.support.CapturedLog;
import io.routegateway.state.support.OutcomeFixtures;
import io.routegateway.testsupport.WebhookReceiver;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import org.junit.jupiter.api.Test;

import static io.routegateway.state.support.AdminApiFixtures.admin;
import static io.routegateway.state.support.AdminApiFixtures.unique;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Webhook delivery against real PostgreSQL and a real HTTP receiver: a state change that needs a
 * person is queued in its transaction and delivered exactly once, signed, by whichever of several
 * concurrent claimers takes it; a 500 is retried with the same delivery id; the secret never leaves.
 */
@QuarkusTest
class WebhookDeliveryTests {

    static final Duration PATIENCE = Duration.ofSeconds(60);
    static final String SECRET = "whsec-" + "s3cr3t-never-shown-0123456789";

    @Inject
    CredentialEventService events;

    @Inject
    WebhookDeliverer deliverer;

    @Inject
    Scheduler scheduler;

    @Inject
    SecretBox secretBox;

    @Inject
    Pool pool;

    static String createEndpoint(String url, List<String> types) {
        return admin().body(Map.of("url", url, "event_types", types, "secret", SECRET))
                .post("/admin/v1/webhooks")
                .then()
                .statusCode(201)
                .extract()
                .path("id");
    }

    private String revoke(String credentialId) {
        CredentialEvent.PermanentFailureRecorded revoked = new CredentialEvent.PermanentFailureRecorded(
                UUID.randomUUID(), credentialId, Instant.now(), null, "upstream_status", 401, "invalid api key", null);
        ApplyResult first = OutcomeFixtures.await(() -> events.apply(revoked));
        assertThat(first.kind()).isEqualTo(ApplyResult.Kind.CHANGED);
        // the same event delivered again changes nothing and notifies nothing
        ApplyResult again = OutcomeFixtures.await(() -> events.apply(revoked));
        assertThat(again.kind()).isEqualTo(ApplyResult.Kind.DUPLICATE);
        return credentialId;
    }

    private List<Row> deliveries(String endpointId) {
        return OutcomeFixtures.await(() -> pool.preparedQuery(
                        "SELECT id, status, attempts, last_status FROM webhook_deliveries WHERE endpoint_id = $1")
                .execute(Tuple.of(endpointId))
                .map(rows -> {
                    List<Row> out = new ArrayList<>();
                    rows.forEach(out::add);
                    return out;
                }));
    }

    @Test
    void twoConcurrentClaimersDeliverEachStateChangeExactlyOnceSigned() throws Exception {
        try (WebhookReceiver receiver = new WebhookReceiver()) {
            String path = "/" + unique("hook");
            String endpoint = createEndpoint(receiver.url(path), List.of("credential.revoked"));
            // only the two claimers below deliver while the rows are queued
            scheduler.pause("webhook-deliveries");
            ExecutorService claimers = Executors.newFixedThreadPool(2);
            try {
                Set<String> revoked = new HashSet<>();
                for (int i = 0; i < 30; i++) {
                    revoked.add(revoke(OutcomeFixtures.createCredential(
                            secretBox, OutcomeFixtures.PRIMARY_CONFIG, "sk-" + UUID.randomUUID())));
                }
                assertThat(deliveries(endpoint)).hasSize(30);

                CountDownLatch start = new CountDownLatch(1);
                List<Future<Integer>> claimed = new ArrayList<>();
                for (int c = 0; c < 2; c++) {
                    claimed.add(claimers.submit(() -> {
                        start.await();
                        int total = 0;
                        int round;
                        do {
                            round = OutcomeFixtures.await(() -> deliverer.deliverDue());
                            total += round;
                        } while (round > 0);
                        return total;
                    }));
                }
                start.countDown();
                for (Future<Integer> claimer : claimed) {
                    claimer.get();
                }

                await().atMost(PATIENCE)
                        .until(() -> deliveries(endpoint).stream()
                                .allMatch(row -> row.getString("status").equals("delivered")));
                List<WebhookReceiver.Received> got = receiver.received(path);
                assertThat(got).hasSize(30);
                assertThat(got.stream()
                                .map(WebhookReceiver.Received::deliveryId)
                                .distinct())
                        .hasSize(30);
                Set<String> notified = new HashSet<>();
                for (WebhookReceiver.Received one : got) {
                    assertThat(WebhookSignature.verify(
                                    SECRET, Long.parseLong(one.timestamp()), one.body(), one.signature()))
                            .as("signature of %s", one.deliveryId())
                            .isTrue();
                    assertThat(one.event()).isEqualTo("credential.revoked");
                    JsonNode body = Json.MAPPER.readTree(one.body());
                    assertThat(body.get("schema").asText()).isEqualTo("route.webhook.v1");
                    assertThat(body.get("type").asText()).isEqualTo("credential.revoked");
                    assertThat(body.get("to").asText()).isEqualTo("revoked");
                    assertThat(one.text()).doesNotContain("invalid api key").doesNotContain(SECRET);
                    notified.add(body.get("credential_id").asText());
                }
                assertThat(notified).isEqualTo(revoked);
            } finally {
                scheduler.resume("webhook-deliveries");
                claimers.shutdownNow();
                admin().delete("/admin/v1/webhooks/" + endpoint).then().statusCode(204);
            }
        }
    }

    @Test
    void aDeliveryAnswered500IsRetriedWithTheSameDeliveryIdAndTheSecretNeverShows() throws Exception {
        CapturedLog log = new CapturedLog().start();
        try (WebhookReceiver receiver = new WebhookReceiver()) {
            String path = "/" + unique("hook");
            receiver.failFirst(path, 1);
            String endpoint = createEndpoint(receiver.url(path), List.of("credential.revoked", "credential.error"));
            try {
                String credential = revoke(OutcomeFixtures.createCredential(
                        secretBox, OutcomeFixtures.PRIMARY_CONFIG, "sk-" + UUID.randomUUID()));

                // the scheduled poll delivers: 500 first, then after the backoff 200
                await().atMost(PATIENCE)
                        .until(() -> receiver.received(path).size() >= 2
                                && deliveries(endpoint)
                                        .get(0)
                                        .getString("status")
                                        .equals("delivered"));
                List<WebhookReceiver.Received> got = receiver.received(path);
                assertThat(got).hasSize(2);
                assertThat(got.get(0).deliveryId()).isEqualTo(got.get(1).deliveryId());
                for (WebhookReceiver.Received one : got) {
                    assertThat(WebhookSignature.verify(
                                    SECRET, Long.parseLong(one.timestamp()), one.body(), one.signature()))
                            .isTrue();
                    assertThat(Json.MAPPER
                                    .readTree(one.body())
                                    .get("credential_id")
                                    .asText())
                            .isEqualTo(credential);
                }
                Row row = deliveries(endpoint).get(0);
                assertThat(row.getInteger("attempts")).isEqualTo(2);
                assertThat(row.getInteger("last_status")).isEqualTo(200);

                String log1 = admin().get("/admin/v1/webhooks/" + endpoint + "/deliveries")
                        .then()
                        .statusCode(200)
                        .extract()
                        .asString();
                JsonNode items = Json.MAPPER.readTree(log1).get("items");
                assertThat(items).hasSize(1);
                assertThat(items.get(0).get("id").asText()).isEqualTo(got.get(0).deliveryId());
                assertThat(items.get(0).get("status").asText()).isEqualTo("delivered");
                assertThat(items.get(0).get("attempts").asInt()).isEqualTo(2);

                List<String> responses = List.of(
                        log1,
                        admin().get("/admin/v1/webhooks")
                                .then()
                                .statusCode(200)
                                .extract()
                                .asString(),
                        admin().get("/admin/v1/webhooks/" + endpoint)
                                .then()
                                .statusCode(200)
                                .extract()
                                .asString(),
                        admin().body(Map.of("enabled", true))
                                .patch("/admin/v1/webhooks/" + endpoint)
                                .then()
                                .statusCode(200)
                                .extract()
                                .asString());
                for (String response : responses) {
                    assertThat(response).doesNotContain(SECRET).doesNotContain("\"secret\"");
                }
                assertThat(String.join("\n", log.lines())).doesNotContain(SECRET);
                String sealed = OutcomeFixtures.await(
                        () -> pool.preparedQuery("SELECT secret_sealed FROM webhook_endpoints WHERE id = $1")
                                .execute(Tuple.of(endpoint))
                                .map(rows -> rows.iterator().next().getString("secret_sealed")));
                assertThat(sealed).startsWith("v2:").doesNotContain(SECRET);
                assertThat(new String(sealed.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8))
                        .isNotEqualTo(SECRET);
            } finally {
                log.stop();
                admin().delete("/admin/v1/webhooks/" + endpoint).then().statusCode(204);
            }
        }
    }

    @Test
    void aChangeThatNeedsNoPersonQueuesNothing() throws Exception {
        try (WebhookReceiver receiver = new WebhookReceiver()) {
            String path = "/" + unique("hook");
            String endpoint = createEndpoint(
                    receiver.url(path), List.of("credential.revoked", "credential.error", "credential.escalated"));
            try {
                String credential = OutcomeFixtures.createCredential(
                        secretBox, OutcomeFixtures.PRIMARY_CONFIG, "sk-" + UUID.randomUUID());
                // one model cooling: the account still serves the other, no person needed
                ApplyResult applied = OutcomeFixtures.await(
                        () -> events.apply(OutcomeFixtures.failure(credential, Instant.now(), "gpt-5.6-sol")));
                assertThat(applied.kind()).isEqualTo(ApplyResult.Kind.CHANGED);
                assertThat(deliveries(endpoint)).isEmpty();
            } finally {
                admin().delete("/admin/v1/webhooks/" + endpoint).then().statusCode(204);
            }
        }
    }

    @Test
    void aSlackEndpointGetsASignedSlackMessage() throws Exception {
        try (WebhookReceiver receiver = new WebhookReceiver()) {
            String path = "/" + unique("slack");
            String endpoint = admin().body(Map.of(
                            "url",
                            receiver.url(path),
                            "event_types",
                            List.of("credential.revoked"),
                            "secret",
                            SECRET,
                            "format",
                            "slack"))
                    .post("/admin/v1/webhooks")
                    .then()
                    .statusCode(201)
                    .extract()
                    .path("id");
            try {
                String credential = revoke(OutcomeFixtures.createCredential(
                        secretBox, OutcomeFixtures.PRIMARY_CONFIG, "sk-" + UUID.randomUUID()));
                await().atMost(PATIENCE).until(() -> !receiver.received(path).isEmpty());
                WebhookReceiver.Received one = receiver.received(path).get(0);
                assertThat(WebhookSignature.verify(
                                SECRET, Long.parseLong(one.timestamp()), one.body(), one.signature()))
                        .isTrue();
                assertThat(one.event()).isEqualTo("credential.revoked");
                JsonNode body = Json.MAPPER.readTree(one.body());
                assertThat(body.size())
                        .as("Slack's incoming-webhook shape: text only")
                        .isEqualTo(1);
                assertThat(body.get("text").asText())
                        .startsWith("[route gateway] credential.revoked: credential " + credential)
                        .contains("(ok → revoked)")
                        .doesNotContain("invalid api key");
            } finally {
                admin().delete("/admin/v1/webhooks/" + endpoint).then().statusCode(204);
            }
        }
    }

    @Test
    void aDeadLetteredUsageRecordNotifiesWithItsReasonAndPositionButNotItsContent() throws Exception {
        try (WebhookReceiver receiver = new WebhookReceiver()) {
            String path = "/" + unique("dlq");
            String endpoint = createEndpoint(receiver.url(path), List.of("usage.dead_lettered"));
            String marker = "team-prompt-" + UUID.randomUUID();
            try {
                io.routegateway.state.support.TestKafka.send(
                        io.routegateway.core.event.Topics.USAGE, "cred-dlq", "{broken usage " + marker);
                await().atMost(PATIENCE)
                        .until(() -> receiver.received(path).stream().anyMatch(one -> one.answered() == 200));
                for (WebhookReceiver.Received one : receiver.received(path)) {
                    assertThat(WebhookSignature.verify(
                                    SECRET, Long.parseLong(one.timestamp()), one.body(), one.signature()))
                            .isTrue();
                    assertThat(one.event()).isEqualTo("usage.dead_lettered");
                    JsonNode body = Json.MAPPER.readTree(one.body());
                    assertThat(body.get("type").asText()).isEqualTo("usage.dead_lettered");
                    assertThat(body.get("cause").asText()).isEqualTo("unparsable");
                    assertThat(one.text()).doesNotContain(marker).doesNotContain("broken usage");
                }
            } finally {
                admin().delete("/admin/v1/webhooks/" + endpoint).then().statusCode(204);
            }
        }
    }
}
