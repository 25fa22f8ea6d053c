package io.routegateway.e2e;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import io.routegateway.demo.Behaviour;
import io.routegateway.demo.Behaviour.Mode;
import io.routegateway.demo.DemoUpstream;
import io.routegateway.e2e.support.EndToEndTest;
import io.routegateway.e2e.support.EventLedger;
import io.routegateway.e2e.support.GatewayClient;
import io.routegateway.e2e.support.Http;
import io.routegateway.e2e.support.Pool;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The spec's "full timeline of one outage", through the gateway's HTTP API with real 10 s cooldowns:
 * the upstream throttles one model of the primary account, the client never sees an error, the model
 * row cools and comes back, and a success clears it. Each step is checked on the client's response
 * and on the {@code route_credentials} / {@code route_credential_models} rows.
 */
class OutageTimelineIT extends EndToEndTest {

    private static final String SOL = "gpt-5.6-sol";
    private static final String GLM = "glm-5.3";
    private static final String UPSTREAM_SOL = "upstream-sol";
    private static final String UPSTREAM_GLM = "upstream-glm";
    /** The default failure policy: two same-account retries before a failure is recorded. */
    private static final int ATTEMPTS_PER_FAILURE = 3;

    private static final Duration COOLDOWN = Duration.ofSeconds(10);

    @Test
    void oneThrottledModelIsRoutedAroundCooledAndRecoveredWithoutAClientError() {
        EventLedger ledger = EventLedger.start(system);
        Pool pool = Pool.create(system);
        String primary = pool.credential(
                "primary", c -> c.priority(0).map(SOL, UPSTREAM_SOL).map(GLM, UPSTREAM_GLM));
        String other = pool.credential(
                "other", c -> c.priority(1).map(SOL, UPSTREAM_SOL).map(GLM, UPSTREAM_GLM));
        String key = pool.accessKey(pool.group("main", primary, other));
        pool.awaitVisible(key);
        GatewayClient client = system.gateway();
        DemoUpstream demo = system.demo();
        demo.setBehaviour(primary, new Behaviour(Mode.STATUS, 429, UPSTREAM_SOL, 0, 0));
        int requests = 0;

        // T+0: 429, same-account retries, one model-scoped failure, switch to the next account
        Instant sent = Instant.now();
        Http.Response first = client.chat(key, SOL);
        Instant answered = Instant.now();
        requests++;
        assertThat(first.status()).as("client response at T+0: %s", first).isEqualTo(200);
        assertThat(first.servedBy()).isEqualTo(other);
        assertThat(demo.requestCount(primary, UPSTREAM_SOL)).isEqualTo(ATTEMPTS_PER_FAILURE);
        await("T+0 failure stored").atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            Map<String, Object> row = modelRow(primary, UPSTREAM_SOL);
            assertThat(integer(row, "transient_failure_count")).isEqualTo(1);
            assertThat(row.get("last_failure_kind")).isEqualTo("upstream_status");
            assertThat(row.get("status")).isEqualTo("ok");
            Map<String, Object> account = system.database().credential(primary);
            assertThat(integer(account, "transient_failure_count")).isEqualTo(1);
            assertThat(account.get("last_failure_kind")).isEqualTo("upstream_status");
        });
        Map<String, Object> coolingRow = modelRow(primary, UPSTREAM_SOL);
        Instant firstCooldown = instant(coolingRow, "cooldown_until");
        assertThat(firstCooldown).isBetween(sent.plus(COOLDOWN), answered.plus(COOLDOWN));
        Map<String, Object> account = system.database().credential(primary);
        assertThat(account.get("cooldown_until")).as("no account cooldown").isNull();
        assertThat(account.get("next_retry_at")).isNull();
        assertThat(account.get("status")).isEqualTo("ok");
        JsonNode view = system.admin().credential(primary);
        assertThat(view.path("status_tag").asText()).isEqualTo("错误 1 次");
        assertThat(view.path("unavailable_models_badge").asText()).isEqualTo("模型 1 不可用");
        assertThat(view.path("cooldown_badge").isNull()).as("no 冷却 badge").isTrue();

        // while it cools, gpt-5.6-sol requests do not touch the primary
        Http.Response whileCooling = client.chat(key, SOL);
        requests++;
        assertThat(whileCooling.status()).isEqualTo(200);
        assertThat(whileCooling.servedBy()).isEqualTo(other);
        assertThat(demo.requestCount(primary, UPSTREAM_SOL)).isEqualTo(ATTEMPTS_PER_FAILURE);

        // T+2: glm-5.3 on the primary succeeds; account traces cleared, the upstream-sol row untouched
        Http.Response glm = client.chat(key, GLM);
        requests++;
        assertThat(glm.status()).isEqualTo(200);
        assertThat(glm.servedBy()).isEqualTo(primary);
        await("T+2 success stored").atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            Map<String, Object> cleared = system.database().credential(primary);
            assertThat(integer(cleared, "transient_failure_count")).isZero();
            assertThat(cleared.get("last_failure_kind")).isNull();
        });
        assertThat(system.database().model(primary, UPSTREAM_GLM)).isEmpty();
        Map<String, Object> untouched = modelRow(primary, UPSTREAM_SOL);
        assertThat(instant(untouched, "cooldown_until")).isEqualTo(firstCooldown);
        assertThat(integer(untouched, "transient_failure_count")).isEqualTo(1);
        assertThat(system.admin()
                        .credential(primary)
                        .path("unavailable_models_badge")
                        .asText())
                .isEqualTo("模型 1 不可用");

        // T+10: the cooldown ran out; the primary is tried again, 429 again, failure #2 cools until T+20
        waitUntilPassed(firstCooldown);
        Instant secondSent = Instant.now();
        Http.Response again = client.chat(key, SOL);
        requests++;
        assertThat(again.status()).isEqualTo(200);
        assertThat(again.servedBy()).isEqualTo(other);
        assertThat(demo.requestCount(primary, UPSTREAM_SOL)).isEqualTo(2 * ATTEMPTS_PER_FAILURE);
        await("T+10 failure stored").atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            Map<String, Object> row = modelRow(primary, UPSTREAM_SOL);
            assertThat(integer(row, "transient_failure_count")).isEqualTo(2);
            assertThat(instant(row, "cooldown_until")).isAfterOrEqualTo(secondSent.plus(COOLDOWN));
        });
        Instant secondCooldown = instant(modelRow(primary, UPSTREAM_SOL), "cooldown_until");
        Map<String, Object> notEscalated = system.database().credential(primary);
        assertThat(notEscalated.get("cooldown_until"))
                .as("glm still serves: no escalation")
                .isNull();
        assertThat(integer(notEscalated, "transient_failure_count")).isEqualTo(1);

        // T+20: the upstream has recovered; the next gpt-5.6-sol success deletes the row
        demo.reset(primary);
        waitUntilPassed(secondCooldown);
        Http.Response recovered = client.chat(key, SOL);
        requests++;
        assertThat(recovered.status()).isEqualTo(200);
        assertThat(recovered.servedBy()).isEqualTo(primary);
        await("T+20 success stored").atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            assertThat(system.database().models(primary)).isEmpty();
            Map<String, Object> clean = system.database().credential(primary);
            assertThat(integer(clean, "transient_failure_count")).isZero();
            assertThat(clean.get("cooldown_until")).isNull();
            assertThat(clean.get("last_failure_kind")).isNull();
        });
        JsonNode recoveredView = system.admin().credential(primary);
        assertThat(recoveredView.path("unavailable_models_badge").isNull()).isTrue();
        assertThat(recoveredView.path("status_tag").asText()).isEqualTo("ok");

        EventLedger.Counts counts = ledger.settle(pool.credentials(), false);
        EventLedger.summary("OutageTimelineIT", "requests=" + requests, "client_errors=0", counts);
        assertThat(counts.missing()).isEmpty();
        assertThat(counts.produced()).isEqualTo(counts.applied() + counts.acknowledged());
    }
}
