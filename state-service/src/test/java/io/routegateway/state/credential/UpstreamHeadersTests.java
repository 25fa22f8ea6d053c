package io.routegateway.state.credential;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.quarkus.test.junit.QuarkusTest;
import io.routegateway.core.event.CredentialSnapshot;
import io.routegateway.core.event.Topics;
import io.routegateway.core.headers.CredentialHeaders;
import io.routegateway.core.json.Json;
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
import static org.hamcrest.Matchers.nullValue;

/** A credential's account-steering headers: taken on create and update, validated, shown and published. */
@QuarkusTest
class UpstreamHeadersTests {

    private static final Duration PATIENCE = Duration.ofSeconds(60);

    @Test
    void steeringHeadersAreStoredShownAndPublished() {
        String id = createCredential(
                unique("cred-headers"),
                "sk-headers-secret",
                Map.of(
                        "upstream_headers",
                        Map.of("openai_organization", "org-admin", "client_may_set", List.of("OpenAI-Beta"))));
        admin().get("/admin/v1/credentials/" + id)
                .then()
                .statusCode(200)
                .body("upstream_headers.openai_organization", equalTo("org-admin"))
                .body("upstream_headers.client_may_set[0]", equalTo("openai-beta"));
        await().atMost(PATIENCE)
                .untilAsserted(() -> assertThat(latest(id).upstreamHeaders())
                        .isEqualTo(new CredentialHeaders("org-admin", null, null, null, List.of("openai-beta"))));

        admin().body(Map.of("upstream_headers", Map.of("anthropic_beta", "prompt-caching-2024-07-31")))
                .patch("/admin/v1/credentials/" + id)
                .then()
                .statusCode(200)
                .body("upstream_headers.anthropic_beta", equalTo("prompt-caching-2024-07-31"))
                .body("upstream_headers.openai_organization", nullValue());
        admin().body(Map.of("priority", 3))
                .patch("/admin/v1/credentials/" + id)
                .then()
                .statusCode(200)
                .body("upstream_headers.anthropic_beta", equalTo("prompt-caching-2024-07-31"));
        HashMap<String, Object> clear = new HashMap<>();
        clear.put("upstream_headers", null);
        admin().body(clear)
                .patch("/admin/v1/credentials/" + id)
                .then()
                .statusCode(200)
                .body("upstream_headers.anthropic_beta", nullValue());
        await().atMost(PATIENCE)
                .untilAsserted(() -> assertThat(latest(id).upstreamHeaders()).isEqualTo(CredentialHeaders.NONE));
    }

    @Test
    void badSteeringHeadersAreRefusedWithTheirCodeAndChangeNothing() {
        String id = createCredential(
                unique("cred-headers"),
                "sk-headers-secret",
                Map.of("upstream_headers", Map.of("openai_project", "proj_1")));
        Map<String, String> cases = new java.util.LinkedHashMap<>();
        cases.put("\"org-1\"", CredentialHeaders.CODE);
        cases.put("{\"openai_organization\":5}", CredentialHeaders.CODE);
        cases.put("{\"openai_organization\":\"org\\u0000x\"}", CredentialHeaders.CODE);
        cases.put("{\"openai_organization\":\"org\\r\\nx-evil: 1\"}", CredentialHeaders.CODE);
        cases.put("{\"openai_project\":\"" + "p".repeat(100_000) + "\"}", CredentialHeaders.CODE);
        cases.put("{\"anthropic_beta\":\"context-1m-2025-08-07\"}", CredentialHeaders.CODE);
        cases.put("{\"client_may_set\":[\"authorization\"]}", CredentialHeaders.CODE);
        cases.put("{\"openai_organisation\":\"org-1\"}", "validation.unknown_field");
        for (Map.Entry<String, String> bad : cases.entrySet()) {
            error(
                    admin().body("{\"name\":\"changed\",\"upstream_headers\":" + bad.getKey() + "}")
                            .patch("/admin/v1/credentials/" + id)
                            .then(),
                    400,
                    bad.getValue());
        }
        admin().get("/admin/v1/credentials/" + id)
                .then()
                .statusCode(200)
                .body("name", equalTo("credential " + id))
                .body("upstream_headers.openai_project", equalTo("proj_1"));
    }

    private static CredentialSnapshot latest(String id) throws Exception {
        List<ConsumerRecord<String, String>> records = TestKafka.readKey(Topics.CREDENTIAL_STATE, id);
        assertThat(records).isNotEmpty();
        return Json.MAPPER.readValue(records.get(records.size() - 1).value(), CredentialSnapshot.class);
    }
}
