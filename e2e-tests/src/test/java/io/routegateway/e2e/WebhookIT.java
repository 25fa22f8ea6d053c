package io.routegateway.e2e;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.JsonNode;
import io.routegateway.core.webhook.WebhookSignature;
import io.routegateway.demo.Behaviour;
import io.routegateway.demo.Behaviour.Mode;
import io.routegateway.e2e.support.EndToEndTest;
import io.routegateway.e2e.support.Http;
import io.routegateway.e2e.support.Pool;
import io.routegateway.testsupport.WebhookReceiver;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Issue "observability", acceptance: with two state-service replicas on one database, a webhook
 * receiver gets exactly one signed delivery per state change that needs a person, whichever
 * replica applied the change and whichever claimed the delivery, and a delivery answered 500 is
 * retried with the same delivery id until it is taken.
 */
class WebhookIT extends EndToEndTest {

    private static final String SECRET = "e2e-webhook-secret-0123456789abcdef";
    private static final int REVOKED = 6;

    @Test
    void twoStateReplicasDeliverOneSignedNotificationPerRevocationAndRetryAfterA500() throws Exception {
        system.startExtraState();
        try (WebhookReceiver receiver = new WebhookReceiver()) {
            String path = "/hooks/revoked";
            receiver.failFirst(path, 2);
            JsonNode endpoint = system.admin()
                    .expect(
                            201,
                            "POST",
                            "/webhooks",
                            Map.of(
                                    "url", receiver.url(path),
                                    "event_types", List.of("credential.revoked"),
                                    "secret", SECRET));
            String endpointId = endpoint.path("id").asText();

            Pool pool = Pool.create(system);
            List<String> doomed = new ArrayList<>();
            for (int i = 0; i < REVOKED; i++) {
                doomed.add(pool.credential(
                        "doomed" + i, c -> c.priority(0).retries(0).map("glm-5.3", "upstream-glm")));
            }
            String healthy = pool.credential("healthy", c -> c.priority(1).map("glm-5.3", "upstream-glm"));
            List<String> members = new ArrayList<>(doomed);
            members.add(healthy);
            String key = pool.accessKey(pool.group("main", members.toArray(String[]::new)));
            pool.awaitVisible(key);
            for (String credential : doomed) {
                // the upstream says the credential is void: a permanent failure, the credential is revoked
                system.demo()
                        .setBehaviour(
                                credential, new Behaviour(Mode.ERROR_BODY, 200, null, 0, 0, "token has been revoked"));
            }

            await("every doomed credential revoked")
                    .atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> {
                        system.gateway().chat(key, "glm-5.3");
                        return doomed.stream()
                                .allMatch(id -> "revoked"
                                        .equals(system.database().credential(id).get("status")));
                    });

            await("one delivery taken per revocation")
                    .atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> receiver.received(path).stream()
                                    .filter(one -> one.answered() == 200)
                                    .count()
                            >= REVOKED);
            // a little longer: a second replica delivering the same change would show up now
            Thread.sleep(2_000);
            List<WebhookReceiver.Received> got = receiver.received(path);

            Map<String, List<WebhookReceiver.Received>> byDelivery =
                    got.stream().collect(Collectors.groupingBy(WebhookReceiver.Received::deliveryId));
            assertThat(byDelivery).as("one delivery id per revocation").hasSize(REVOKED);
            Set<String> notified = new HashSet<>();
            for (List<WebhookReceiver.Received> attempts : byDelivery.values()) {
                assertThat(attempts.stream().filter(one -> one.answered() == 200))
                        .as("taken exactly once")
                        .hasSize(1);
                JsonNode first = Http.JSON.readTree(attempts.get(0).body());
                for (WebhookReceiver.Received one : attempts) {
                    assertThat(WebhookSignature.verify(
                                    SECRET, Long.parseLong(one.timestamp()), one.body(), one.signature()))
                            .as("signed: %s", one.deliveryId())
                            .isTrue();
                    assertThat(Http.JSON.readTree(one.body()).path("credential_id"))
                            .as("a retry carries the same change")
                            .isEqualTo(first.path("credential_id"));
                    assertThat(one.text()).doesNotContain(SECRET).doesNotContain(Pool.secretOf(healthy));
                }
                assertThat(first.path("schema").asText()).isEqualTo("route.webhook.v1");
                assertThat(first.path("type").asText()).isEqualTo("credential.revoked");
                notified.add(first.path("credential_id").asText());
            }
            assertThat(notified).containsExactlyInAnyOrderElementsOf(doomed);
            // each 500 is followed by one more attempt of the same delivery (the same one may get both)
            assertThat(got.stream().filter(one -> one.answered() == 500))
                    .as("the receiver refused two attempts")
                    .hasSize(2);
            assertThat(got)
                    .as("one retry per refused attempt, nothing delivered twice")
                    .hasSize(REVOKED + 2);
            for (List<WebhookReceiver.Received> attempts : byDelivery.values()) {
                assertThat(attempts.get(attempts.size() - 1).answered())
                        .as("a delivery refused with 500 is retried until taken")
                        .isEqualTo(200);
            }

            JsonNode log = system.admin().expect(200, "GET", "/webhooks/" + endpointId + "/deliveries", null);
            assertThat(log.path("items")).hasSize(REVOKED);
            log.path("items")
                    .forEach(item -> assertThat(item.path("status").asText()).isEqualTo("delivered"));

            system.admin().expect(204, "DELETE", "/webhooks/" + endpointId, null);
            doomed.forEach(id -> system.demo().reset(id));
        }
    }
}
