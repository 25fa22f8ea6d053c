package io.routegateway.state.usage;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import jakarta.inject.Inject;

import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static io.routegateway.state.support.AdminApiFixtures.admin;
import static io.routegateway.state.support.AdminApiFixtures.unique;
import static io.routegateway.state.support.OutcomeFixtures.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.nullValue;

/** Request log filters and paging, usage grouping; rows are written as the usage consumer writes them. */
@QuarkusTest
class RequestStatsTests {

    static final Instant DAY_ONE = Instant.parse("2026-03-01T10:00:00Z");
    static final Instant DAY_TWO = Instant.parse("2026-03-02T10:00:00Z");

    @Inject
    Pool pool;

    String key;
    String credential;
    String otherCredential;

    @BeforeEach
    void logSomeRequests() {
        key = unique("ak");
        credential = unique("cred");
        otherCredential = unique("cred");
        insert(DAY_ONE, key, credential, "gpt-5.6-sol", "upstream-sol", true, null, false, 100L, 20L, 300L);
        insert(
                DAY_ONE.plusSeconds(1),
                key,
                credential,
                "gpt-5.6-sol",
                "upstream-sol",
                false,
                "no_available_credential",
                false,
                null,
                null,
                null);
        insert(
                DAY_ONE.plusSeconds(2),
                key,
                otherCredential,
                "glm-5.3",
                "upstream-glm",
                true,
                null,
                false,
                10L,
                5L,
                null);
        insert(DAY_TWO, key, credential, "gpt-5.6-sol", "upstream-sol", true, null, false, 1000L, 200L, 3250L);
        insert(DAY_TWO.plusSeconds(1), null, credential, "gpt-5.6-sol", "upstream-sol", true, null, true, 5L, 1L, 10L);
        insert(
                DAY_TWO.plusSeconds(2),
                key,
                credential,
                "gpt-5.6-sol",
                "upstream-sol",
                false,
                "route_pool.model_unavailable",
                false,
                null,
                null,
                null);
    }

    void insert(
            Instant at,
            String accessKey,
            String credentialId,
            String requested,
            String modelKey,
            boolean success,
            String reason,
            boolean probe,
            Long input,
            Long output,
            Long cost) {
        Tuple values = Tuple.from(List.of(
                UUID.randomUUID(),
                at.toString(),
                at.toEpochMilli(),
                "openai_chat",
                credentialId,
                requested,
                modelKey,
                success ? 200 : 502,
                success,
                probe));
        values.addValue(accessKey)
                .addValue(reason)
                .addValue(input)
                .addValue(output)
                .addValue(cost);
        await(() -> pool.preparedQuery("INSERT INTO request_logs (request_id, occurred_at, occurred_epoch_ms, protocol,"
                        + " credential_id, requested_model, model_key, status, success, probe, access_key_id, reason_code,"
                        + " input_tokens, output_tokens, cost_micros, attempts, latency_ms)"
                        + " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, 1, 42)")
                .execute(values));
    }

    @Test
    void theLogIsNewestFirstAndFiltersByCredential() {
        admin().get("/admin/v1/requests?credential_id=" + credential)
                .then()
                .statusCode(200)
                .body("items", hasSize(5))
                .body("items[0].occurred_at", equalTo(DAY_TWO.plusSeconds(2).toString()))
                .body("items[0].reason_code", equalTo("route_pool.model_unavailable"))
                .body("items[4].occurred_at", equalTo(DAY_ONE.toString()))
                .body("next_cursor", nullValue());
    }

    @Test
    void filtersCombine() {
        admin().get("/admin/v1/requests?access_key_id=" + key + "&success=false")
                .then()
                .body("items.reason_code", contains("route_pool.model_unavailable", "no_available_credential"));
        admin().get("/admin/v1/requests?access_key_id=" + key + "&reason_code=no_available_credential")
                .then()
                .body("items", hasSize(1));
        admin().get("/admin/v1/requests?access_key_id=" + key + "&model=upstream-glm")
                .then()
                .body("items.credential_id", contains(otherCredential));
        admin().get("/admin/v1/requests?access_key_id=" + key + "&model=glm-5.3")
                .then()
                .body("items", hasSize(1));
        admin().get("/admin/v1/requests?credential_id=" + credential
                        + "&from=2026-03-02T00:00:00Z&to=2026-03-02T10:00:01Z")
                .then()
                .body("items.occurred_at", contains(DAY_TWO.toString()));
        admin().get("/admin/v1/requests?credential_id=" + credential + "&probe=true")
                .then()
                .body("items", hasSize(1))
                .body("items[0].probe", equalTo(true));
    }

    @Test
    void pagesFollowTheCursorWithoutGapsOrRepeats() {
        var first = admin().get("/admin/v1/requests?credential_id=" + credential + "&limit=2")
                .then()
                .statusCode(200)
                .extract();
        var second = admin().get("/admin/v1/requests?credential_id=" + credential + "&limit=2&cursor="
                        + first.path("next_cursor"))
                .then()
                .extract();
        var third = admin().get("/admin/v1/requests?credential_id=" + credential + "&limit=2&cursor="
                        + second.path("next_cursor"))
                .then()
                .extract();
        List<String> seen = new java.util.ArrayList<>();
        seen.addAll(first.path("items.request_id"));
        seen.addAll(second.path("items.request_id"));
        seen.addAll(third.path("items.request_id"));
        assertThat(seen).hasSize(5).doesNotHaveDuplicates();
        assertThat((Object) third.path("next_cursor")).isNull();
    }

    @Test
    void usagePerDaySeparatesProbes() {
        admin().get("/admin/v1/usage?group_by=day&credential_id=" + credential)
                .then()
                .statusCode(200)
                .body("rows.key", contains("2026-03-01", "2026-03-02"))
                .body("rows[0].requests", equalTo(2))
                .body("rows[0].failures", equalTo(1))
                .body("rows[1].requests", equalTo(3))
                .body("rows[1].probes", equalTo(1))
                .body("rows[1].input_tokens", equalTo(1005))
                .body("rows[1].cost_micros", equalTo(3260))
                .body("total.requests", equalTo(5));
        admin().get("/admin/v1/usage?group_by=day&probe=false&credential_id=" + credential)
                .then()
                .body("rows[1].requests", equalTo(2))
                .body("rows[1].probes", equalTo(0))
                .body("rows[1].cost_micros", equalTo(3250));
    }

    @Test
    void usagePerKeyCredentialAndModel() {
        admin().get("/admin/v1/usage?group_by=credential&access_key_id=" + key)
                .then()
                .body("rows.find { it.key == '" + credential + "' }.requests", equalTo(4))
                .body("rows.find { it.key == '" + otherCredential + "' }.output_tokens", equalTo(5));
        admin().get("/admin/v1/usage?group_by=model&access_key_id=" + key)
                .then()
                .body("rows.key", contains("upstream-glm", "upstream-sol"))
                .body("rows[1].failures", equalTo(2));
        admin().get("/admin/v1/usage?group_by=access_key&credential_id=" + credential)
                .then()
                .body("rows.key", contains(key, null))
                .body("rows[1].probes", equalTo(1));
    }
}
