package io.routegateway.state.credential;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.quarkus.test.junit.QuarkusTest;
import io.routegateway.core.event.CredentialSnapshot;
import io.routegateway.core.event.Topics;
import io.routegateway.core.json.Json;
import io.routegateway.core.limits.CredentialLimits;
import io.routegateway.state.support.TestKafka;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

import static io.routegateway.state.support.AdminApiFixtures.admin;
import static io.routegateway.state.support.AdminApiFixtures.createCredential;
import static io.routegateway.state.support.AdminApiFixtures.error;
import static io.routegateway.state.support.AdminApiFixtures.unique;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.nullValue;

/** A credential's own limits: taken on create and update, shown, and published in {@code credential-state.v1}. */
@QuarkusTest
class CredentialLimitsTests {

    private static final Duration PATIENCE = Duration.ofSeconds(60);

    @Test
    void limitsAreStoredShownAndPublished() {
        String id = createCredential(
                unique("cred-limits"),
                "sk-limits-secret",
                Map.of("limits", Map.of("rpm_limit", 60, "max_parallel_requests", 4)));
        admin().get("/admin/v1/credentials/" + id)
                .then()
                .statusCode(200)
                .body("limits.rpm_limit", equalTo(60))
                .body("limits.max_parallel_requests", equalTo(4));
        await().atMost(PATIENCE)
                .untilAsserted(() -> assertThat(latest(id).limits()).isEqualTo(new CredentialLimits(60, 4)));

        admin().body(Map.of("limits", Map.of("rpm_limit", 10)))
                .patch("/admin/v1/credentials/" + id)
                .then()
                .statusCode(200)
                .body("limits.rpm_limit", equalTo(10))
                .body("limits.max_parallel_requests", nullValue());
        // a write that leaves limits out keeps them
        admin().body(Map.of("priority", 3))
                .patch("/admin/v1/credentials/" + id)
                .then()
                .statusCode(200)
                .body("limits.rpm_limit", equalTo(10));
        HashMap<String, Object> clear = new HashMap<>();
        clear.put("limits", null);
        admin().body(clear)
                .patch("/admin/v1/credentials/" + id)
                .then()
                .statusCode(200)
                .body("limits.rpm_limit", nullValue())
                .body("limits", hasKey("max_parallel_requests"));
        await().atMost(PATIENCE)
                .untilAsserted(() -> assertThat(latest(id).limits()).isEqualTo(CredentialLimits.NONE));
    }

    @Test
    void badLimitsAreRefusedAndChangeNothing() {
        String id =
                createCredential(unique("cred-limits"), "sk-limits-secret", Map.of("limits", Map.of("rpm_limit", 5)));
        for (String limits : List.of(
                "5",
                "\"5\"",
                "{\"rpm_limit\":0}",
                "{\"rpm_limit\":-1}",
                "{\"rpm_limit\":10000001}",
                "{\"rpm_limit\":2.5}",
                "{\"rpm_limit\":\"5\"}",
                "{\"max_parallel_requests\":0}",
                "{\"max_parallel_requests\":1e9}",
                "{\"tpm_limit\":5}",
                "{\"max_budget\":5}")) {
            error(
                    admin().body("{\"name\":\"changed\",\"limits\":" + limits + "}")
                            .patch("/admin/v1/credentials/" + id)
                            .then(),
                    400,
                    "validation.limits");
        }
        admin().get("/admin/v1/credentials/" + id)
                .then()
                .statusCode(200)
                .body("name", equalTo("credential " + id))
                .body("limits.rpm_limit", equalTo(5));
    }

    private static CredentialSnapshot latest(String id) throws Exception {
        List<ConsumerRecord<String, String>> records = TestKafka.readKey(Topics.CREDENTIAL_STATE, id);
        assertThat(records).isNotEmpty();
        return Json.MAPPER.readValue(records.get(records.size() - 1).value(), CredentialSnapshot.class);
    }
}
