package io.routegateway.e2e;

import java.time.Duration;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.routegateway.demo.Behaviour;
import io.routegateway.demo.Behaviour.Mode;
import io.routegateway.demo.DemoUpstream;
import io.routegateway.e2e.support.EndToEndTest;
import io.routegateway.e2e.support.EventLedger;
import io.routegateway.e2e.support.GatewayClient;
import io.routegateway.e2e.support.Http;
import io.routegateway.e2e.support.OutcomeTap;
import io.routegateway.e2e.support.Pool;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Quota exhaustion flips an account to {@code error} at once, and only its recovery mode brings it
 * back: {@code scheduled} at the configured time in the credential's zone, {@code healthcheck} once
 * a probe passes. Both wait for real minutes, so the two tests run side by side (the class itself
 * runs alone, like every other).
 */
@Execution(ExecutionMode.SAME_THREAD)
class RecoveryIT extends EndToEndTest {

    private static final String SOL = "gpt-5.6-sol";
    private static final String UPSTREAM_SOL = "upstream-sol";
    private static final ZoneId ZONE = ZoneId.of("Asia/Shanghai");
    /** Pools are set up one at a time: a pool waits for its credential count in the gateway's view. */
    private static final Object SETUP = new Object();

    /** An account of a fresh pool, flipped to {@code error} by quota exhaustion; a backup serves meanwhile. */
    private record Parked(Pool pool, String account, String backup, String key, EventLedger ledger) {}

    /**
     * Sets up a pool (the account first by priority, a backup), lets the demo upstream answer the
     * account's requests with an exhausted quota, and sends one request: the client gets its answer
     * from the backup, the account is parked.
     */
    private static Parked parkedByQuota(String role, JsonNode recovery) {
        Pool pool;
        String account;
        String backup;
        String key;
        synchronized (SETUP) {
            pool = Pool.create(system);
            account = pool.credential(role, c -> {
                c.priority(0).retries(0).map(SOL, UPSTREAM_SOL);
                if (recovery != null) {
                    c.recovery(recovery);
                }
            });
            backup = pool.credential("backup", c -> c.priority(1).map(SOL, UPSTREAM_SOL));
            key = pool.accessKey(pool.group("main", account, backup));
            pool.awaitVisible(key);
        }
        EventLedger ledger = EventLedger.start(system);
        system.demo().setBehaviour(account, new Behaviour(Mode.QUOTA, 200, null, 0, 0));

        Http.Response first = system.gateway().chat(key, SOL);
        assertThat(first.status()).as("%s", first).isEqualTo(200);
        assertThat(first.servedBy()).isEqualTo(backup);
        String parked = account;
        await("account flipped to error")
                .atMost(Duration.ofSeconds(20))
                .untilAsserted(() -> assertQuotaParked(system.database().credential(parked)));
        return new Parked(pool, account, backup, key, ledger);
    }

    @Test
    @Execution(ExecutionMode.CONCURRENT)
    void quotaExhaustionParksTheAccountUntilItsScheduledTime() {
        Parked parked = parkedByQuota("sched", null);
        String quota = parked.account();
        GatewayClient client = system.gateway();
        DemoUpstream demo = system.demo();
        Http.Response avoided = client.chat(parked.key(), SOL);
        assertThat(avoided.servedBy()).isEqualTo(parked.backup());
        assertThat(demo.requestCount(quota, UPSTREAM_SOL)).isEqualTo(1);

        // the relay's quota resets; scheduled recovery does not verify, it fires at the configured time
        demo.reset(quota);
        ZonedDateTime now = ZonedDateTime.now(ZONE);
        ZonedDateTime at = now.truncatedTo(ChronoUnit.MINUTES).plusMinutes(1);
        if (Duration.between(now, at).toSeconds() < 15) {
            at = at.plusMinutes(1);
        }
        String time = at.format(DateTimeFormatter.ofPattern("H:mm"));
        ObjectNode recovery =
                Http.JSON.createObjectNode().put("mode", "scheduled").put("time_zone", ZONE.getId());
        recovery.putArray("times").add(time);
        JsonNode patched = system.admin()
                .patchCredential(quota, Http.JSON.createObjectNode().set("recovery", recovery));
        assertThat(patched.path("recovery").path("times").get(0).asText())
                .as("normalized to HH:MM")
                .isEqualTo(at.format(DateTimeFormatter.ofPattern("HH:mm")));
        assertThat(system.database().credential(quota).get("status"))
                .as("still parked before %s", time)
                .isEqualTo("error");

        await("scheduled reactivation at " + time + " " + ZONE)
                .atMost(Duration.between(ZonedDateTime.now(ZONE), at).plusSeconds(40))
                .pollInterval(Duration.ofMillis(500))
                .untilAsserted(() -> {
                    Map<String, Object> account = system.database().credential(quota);
                    assertThat(account.get("status")).isEqualTo("ok");
                    assertThat(integer(account, "semantic_failure_streak_count"))
                            .isZero();
                    assertThat(account.get("last_failure_kind")).isNull();
                });
        assertThat(ZonedDateTime.now(ZONE)).as("not before the configured time").isAfterOrEqualTo(at);
        await("the gateway sends traffic to it again")
                .atMost(Duration.ofSeconds(20))
                .untilAsserted(() ->
                        assertThat(client.chat(parked.key(), SOL).servedBy()).isEqualTo(quota));

        EventLedger.Counts counts = parked.ledger().settle(parked.pool().credentials(), false);
        EventLedger.summary("RecoveryIT.scheduled", "scheduled_time=" + time + "@" + ZONE, counts);
        assertThat(counts.missing()).isEmpty();
    }

    @Test
    @Execution(ExecutionMode.CONCURRENT)
    void quotaExhaustionParksTheAccountUntilAHealthcheckProbePasses() {
        Parked parked = parkedByQuota(
                "health",
                Http.JSON.createObjectNode().put("mode", "healthcheck").put("interval_minutes", 1));
        String probed = parked.account();
        Map<TopicPartition, Long> mark = parked.ledger().mark();
        GatewayClient client = system.gateway();
        DemoUpstream demo = system.demo();

        // the first probe runs on the next tick and meets the exhausted quota: nothing changes
        await("a failing probe")
                .atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(500))
                .until(() -> system.outcomes().readSince(mark, Set.of(probed)).size() >= 2);
        assertThat(demo.requestCount(probed, UPSTREAM_SOL)).isEqualTo(2);
        Set<UUID> produced = system.outcomes().readSince(mark, Set.of(probed)).stream()
                .map(OutcomeTap.Outcome::eventId)
                .collect(Collectors.toSet());
        await("probe outcome applied")
                .atMost(Duration.ofSeconds(20))
                .until(() -> system.database().processedEvents(Set.of(probed)).containsAll(produced));
        assertThat(system.database().credential(probed).get("status")).isEqualTo("error");

        // the quota comes back; the next probe (interval 1 minute) passes and recovers the account
        demo.reset(probed);
        await("healthcheck recovery")
                .atMost(Duration.ofSeconds(100))
                .pollInterval(Duration.ofSeconds(1))
                .untilAsserted(() -> {
                    Map<String, Object> row = system.database().credential(probed);
                    assertThat(row.get("status")).isEqualTo("ok");
                    assertThat(integer(row, "semantic_failure_streak_count")).isZero();
                });
        assertThat(demo.requestCount(probed, UPSTREAM_SOL))
                .as("exactly one more probe")
                .isEqualTo(3);
        await("the gateway sends traffic to it again")
                .atMost(Duration.ofSeconds(20))
                .untilAsserted(() ->
                        assertThat(client.chat(parked.key(), SOL).servedBy()).isEqualTo(probed));

        EventLedger.Counts counts = parked.ledger().settle(parked.pool().credentials(), false);
        EventLedger.summary("RecoveryIT.healthcheck", "probes=2", counts);
        assertThat(counts.missing()).isEmpty();
    }

    private static void assertQuotaParked(Map<String, Object> account) {
        assertThat(account.get("status")).isEqualTo("error");
        assertThat(account.get("last_failure_kind")).isEqualTo("semantic_response_failed");
        assertThat(integer(account, "semantic_failure_streak_count")).isEqualTo(1);
        assertThat(integer(account, "transient_failure_count")).isZero();
        assertThat(account.get("cooldown_until")).isNull();
        assertThat(account.get("next_retry_at")).isNull();
    }
}
