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
 * "If the upstream is down wholesale instead, each model fails once and the second failure triggers
 * the escalation: an account-level cooldown_until is written and the whole account backs off."
 */
class EscalationIT extends EndToEndTest {

    @Test
    void anUpstreamDownWholesaleFailsEachModelOnceThenTheAccountCoolsAsAWhole() {
        EventLedger ledger = EventLedger.start(system);
        Pool pool = Pool.create(system);
        String down = pool.credential(
                "down",
                c -> c.priority(0).retries(0).map("gpt-5.6-sol", "upstream-sol").map("glm-5.3", "upstream-glm"));
        String backup = pool.credential(
                "backup", c -> c.priority(1).map("gpt-5.6-sol", "upstream-sol").map("glm-5.3", "upstream-glm"));
        String key = pool.accessKey(pool.group("main", down, backup));
        pool.awaitVisible(key);
        GatewayClient client = system.gateway();
        DemoUpstream demo = system.demo();
        // every model of the account answers 503
        demo.setBehaviour(down, new Behaviour(Mode.STATUS, 503, null, 0, 0));

        Http.Response sol = client.chat(key, "gpt-5.6-sol");
        assertThat(sol.status()).as("%s", sol).isEqualTo(200);
        assertThat(sol.servedBy()).isEqualTo(backup);
        await("first model parked").atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            assertThat(system.database().model(down, "upstream-sol")).isPresent();
            assertThat(integer(system.database().credential(down), "transient_failure_count"))
                    .isEqualTo(1);
        });
        assertThat(system.database().credential(down).get("cooldown_until"))
                .as("one model down is not yet the account")
                .isNull();

        Instant sent = Instant.now();
        Http.Response glm = client.chat(key, "glm-5.3");
        Instant answered = Instant.now();
        assertThat(glm.status()).isEqualTo(200);
        assertThat(glm.servedBy()).isEqualTo(backup);
        await("escalated to the account").atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            assertThat(system.database().model(down, "upstream-glm")).isPresent();
            assertThat(system.database().credential(down).get("cooldown_until")).isNotNull();
        });
        Map<String, Object> account = system.database().credential(down);
        Instant cooldown = instant(account, "cooldown_until");
        assertThat(instant(account, "next_retry_at"))
                .as("both timestamps written together")
                .isEqualTo(cooldown);
        assertThat(cooldown).isBetween(sent.plusSeconds(10), answered.plusSeconds(10));
        assertThat(account.get("status")).isEqualTo("ok");
        JsonNode view = system.admin().credential(down);
        assertThat(view.path("cooldown_badge").asText()).startsWith("冷却").endsWith("秒");
        assertThat(view.path("unavailable_models_badge").asText()).isEqualTo("模型 2 不可用");

        // the account backs off as a whole: neither model is sent to it while it cools
        for (String model : new String[] {"gpt-5.6-sol", "glm-5.3"}) {
            Http.Response avoided = client.chat(key, model);
            assertThat(avoided.status()).isEqualTo(200);
            assertThat(avoided.servedBy()).isEqualTo(backup);
        }
        assertThat(demo.requestCount(down, "upstream-sol")).isEqualTo(1);
        assertThat(demo.requestCount(down, "upstream-glm")).isEqualTo(1);
        demo.reset(down);

        EventLedger.Counts counts = ledger.settle(pool.credentials(), false);
        EventLedger.summary("EscalationIT", "requests=4", "client_errors=0", counts);
        assertThat(counts.missing()).isEmpty();
    }
}
