package io.routegateway.state.credential;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import jakarta.inject.Inject;

import io.quarkus.test.junit.QuarkusTest;
import io.routegateway.core.event.CredentialEvent;
import io.routegateway.core.event.Topics;
import io.routegateway.state.outcome.CredentialEventService;
import io.routegateway.state.support.CapturedLog;
import io.routegateway.state.support.TestKafka;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static io.routegateway.state.support.AdminApiFixtures.admin;
import static io.routegateway.state.support.AdminApiFixtures.createCredential;
import static io.routegateway.state.support.AdminApiFixtures.createGroup;
import static io.routegateway.state.support.AdminApiFixtures.createKey;
import static io.routegateway.state.support.AdminApiFixtures.unique;
import static io.routegateway.state.support.OutcomeFixtures.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An upstream secret, once written, never comes back: not in any admin API answer, not in the log,
 * not on the state topic. An AccessKey's plaintext is in the creation answer only.
 */
@QuarkusTest
class SecretExposureTests {

    @Inject
    CredentialEventService events;

    final CapturedLog log = new CapturedLog();

    @BeforeEach
    void captureTheLog() {
        log.start();
    }

    @AfterEach
    void stopCapturing() {
        log.stop();
    }

    @Test
    void anUpstreamSecretIsInNoAnswerNoLogLineAndNoStateMessage() {
        String id = unique("cred");
        String secret = "sk-first-" + UUID.randomUUID();
        String rotated = "sk-rotated-" + UUID.randomUUID();
        List<String> answers = new java.util.ArrayList<>();

        answers.add(admin().body(Map.of(
                        "id", id,
                        "name", "leak check",
                        "platform", "openai",
                        "kind", "api",
                        "base_url", "https://relay.example.test/v1",
                        "secret", secret,
                        "model_mappings", List.of(Map.of("from", "gpt-5.6-sol", "to", "upstream-sol"))))
                .post("/admin/v1/credentials")
                .then()
                .statusCode(201)
                .extract()
                .asString());
        String group = createGroup(unique("grp"), List.of(id), List.of());
        String keyId = createKey(Map.of("name", "leak check", "group_ids", List.of(group)))[0];
        answers.add(admin().body(Map.of("secret", rotated, "name", "rotated"))
                .patch("/admin/v1/credentials/" + id)
                .then()
                .statusCode(200)
                .extract()
                .asString());
        // refused writes must not echo what they were sent either
        answers.add(admin().body("{\"secret\": \"" + rotated + "\", \"name\": ")
                .patch("/admin/v1/credentials/" + id)
                .then()
                .statusCode(400)
                .extract()
                .asString());
        answers.add(admin().body(Map.of("secret", rotated, "weight", 0, "weight_mode", "manual"))
                .patch("/admin/v1/credentials/" + id)
                .then()
                .statusCode(400)
                .extract()
                .asString());
        answers.add(admin().body(Map.of("secret", rotated, "platform", "nowhere"))
                .post("/admin/v1/credentials")
                .then()
                .statusCode(400)
                .extract()
                .asString());
        admin().post("/admin/v1/credentials/" + id + "/models/upstream-sol/pause")
                .then()
                .statusCode(200);
        for (String path : List.of(
                "/admin/v1/credentials",
                "/admin/v1/credentials/" + id,
                "/admin/v1/credentials/" + id + "/models",
                "/admin/v1/credentials/" + id + "/timeline",
                "/admin/v1/health",
                "/admin/v1/groups/" + group)) {
            answers.add(admin().get(path).then().statusCode(200).extract().asString());
        }
        answers.add(admin().body(Map.of("access_key_id", keyId, "protocol", "openai_chat", "model", "gpt-5.6-sol"))
                .post("/admin/v1/route-check")
                .then()
                .statusCode(200)
                .extract()
                .asString());

        assertThat(answers)
                .allSatisfy(answer -> assertThat(answer).doesNotContain(secret).doesNotContain(rotated));
        assertThat(String.join("\n", answers))
                .doesNotContain("encrypted_secret")
                .contains("\"has_secret\":true");
        await().untilAsserted(() -> {
            List<ConsumerRecord<String, String>> published = TestKafka.readKey(Topics.CREDENTIAL_STATE, id);
            // the outbox relay publishes only the newest pending row of a key, so earlier versions
            // may be skipped; the last change (the model pause after the rotation) must be there
            assertThat(published).isNotEmpty();
            assertThat(published.get(published.size() - 1).value())
                    .contains("\"name\":\"rotated\"")
                    .contains("\"status\":\"paused\"");
            assertThat(published)
                    .allSatisfy(record -> assertThat(record.value())
                            .doesNotContain(secret)
                            .doesNotContain(rotated)
                            .contains("\"encrypted_secret\":\"v2:"));
        });
        assertThat(log.lines())
                .allSatisfy(line -> assertThat(line).doesNotContain(secret).doesNotContain(rotated));
    }

    @Test
    void aSecretQuotedByTheUpstreamInAFailureIsMaskedInAnswers() {
        String secret = "sk-echoed-" + UUID.randomUUID();
        String id = createCredential(unique("cred"), secret, Map.of());
        await(() -> events.apply(new CredentialEvent.TransientFailureRecorded(
                UUID.randomUUID(),
                id,
                Instant.now(),
                "upstream-sol",
                "upstream_status",
                401,
                "Incorrect API key provided: " + secret,
                "{\"error\":{\"message\":\"Incorrect API key provided: " + secret + "\"}}")));
        for (String path : List.of(
                "/admin/v1/credentials/" + id,
                "/admin/v1/credentials/" + id + "/models",
                "/admin/v1/credentials/" + id + "/timeline",
                "/admin/v1/health")) {
            String answer = admin().get(path).then().statusCode(200).extract().asString();
            assertThat(answer).as(path).doesNotContain(secret);
        }
        assertThat(admin().get("/admin/v1/credentials/" + id)
                        .then()
                        .extract()
                        .<String>path("account.last_failure_message"))
                .isEqualTo("Incorrect API key provided: [redacted]");
    }
}
