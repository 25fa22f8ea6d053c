package io.routegateway.e2e.fault;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import io.routegateway.demo.Behaviour;
import io.routegateway.demo.Behaviour.Mode;
import io.routegateway.demo.DemoUpstream;
import io.routegateway.e2e.support.EndToEndTest;
import io.routegateway.e2e.support.EventLedger;
import io.routegateway.e2e.support.GatewayClient;
import io.routegateway.e2e.support.Http;
import io.routegateway.e2e.support.Metrics;
import io.routegateway.e2e.support.Pool;
import io.routegateway.e2e.support.ServiceProcess;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two gateway replicas: a failure that one of them sees is avoided by the other once the outcome has
 * reached it, by the short way (gateway A → route.outcomes → gateway B) or the round trip (... →
 * state-service → route.credential-state → gateway B), whichever is first. Measures that lag over
 * {@value #SAMPLES} samples and prints p50/p99 with the timers of both ways.
 *
 * <p>Each sample uses a model of its own. Replica A's request meets a 429 on the preferred account
 * (priority 0) and fails over; then that account answers 400 for the model — a client error that is
 * returned as it is and records nothing — so polling replica B shows, without teaching B anything,
 * whether B still picks the account (400) or already avoids it (200 from the other account).
 */
class ReplicaLagIT extends EndToEndTest {

    private static final int SAMPLES = 25;
    /** More models than samples: one model per sample, and never all of them cooling (no escalation). */
    private static final int MODELS = 40;
    /** Replica B's timer of an outcome's whole way to its view. */
    private static final String PROPAGATION = "gateway_view_outcome_propagation_seconds";
    /** Replica B's timer of a peer's failure read straight from route.outcomes to its view. */
    private static final String PEER_OUTCOME = "gateway_view_peer_outcome_delay_seconds";

    @Test
    void aFailureSeenByOneReplicaIsAvoidedByTheOther() {
        ServiceProcess second = system.startExtraGateway();
        EventLedger ledger = EventLedger.start(system);
        Pool pool = Pool.create(system, List.of(system.gatewayProcess(), second));
        String preferred = pool.credential("pref", c -> {
            c.priority(0).retries(0).cooldownSeconds(120);
            for (int i = 1; i <= MODELS; i++) {
                c.map("lag-m" + i, "lag-u" + i);
            }
        });
        String fallback = pool.credential("backup", c -> {
            c.priority(1);
            for (int i = 1; i <= MODELS; i++) {
                c.map("lag-m" + i, "lag-u" + i);
            }
        });
        String key = pool.accessKey(pool.group("main", preferred, fallback));
        pool.awaitVisible(key);
        GatewayClient replicaA = system.gateway();
        GatewayClient replicaB = new GatewayClient(second.baseUrl());
        DemoUpstream demo = system.demo();

        List<Long> lagsMicros = new ArrayList<>();
        int polls = 0;
        // state-service's share of the lag, from its own timers over the samples
        Metrics stateBefore = Metrics.of(system.state());
        Metrics replicaBBefore = Metrics.of(second);
        try {
            for (int i = 1; i <= SAMPLES; i++) {
                String model = "lag-m" + i;
                String upstream = "lag-u" + i;
                demo.setBehaviour(preferred, new Behaviour(Mode.STATUS, 429, upstream, 0, 0));
                Http.Response seen = replicaA.chat(key, model);
                long failureSeen = System.nanoTime();
                assertThat(seen.status())
                        .as("replica A, sample %d: %s", i, seen)
                        .isEqualTo(200);
                assertThat(seen.servedBy()).isEqualTo(fallback);
                demo.setBehaviour(preferred, new Behaviour(Mode.STATUS, 400, upstream, 0, 0));

                long deadline = failureSeen + Duration.ofSeconds(30).toNanos();
                while (true) {
                    Http.Response probe = replicaB.chat(key, model);
                    long now = System.nanoTime();
                    polls++;
                    if (probe.status() == 200) {
                        assertThat(probe.servedBy()).isEqualTo(fallback);
                        lagsMicros.add((now - failureSeen) / 1_000);
                        break;
                    }
                    assertThat(probe.status())
                            .as("replica B still picks the account: %s", probe)
                            .isEqualTo(400);
                    assertThat(now)
                            .as("replica B avoided it within 30 s (sample %d)", i)
                            .isLessThan(deadline);
                    sleepMillis(5);
                }
            }
        } finally {
            demo.reset(preferred);
        }

        Metrics stateAfter = Metrics.of(system.state());
        Metrics replicaBAfter = Metrics.of(second);
        List<Long> sorted = new ArrayList<>(lagsMicros);
        sorted.sort(null);
        EventLedger.Counts counts = ledger.settle(pool.credentials(), false);
        EventLedger.summary(
                "ReplicaLagIT",
                "samples=" + sorted.size(),
                "replica_lag_p50_ms=" + millis(percentile(sorted, 50)),
                "replica_lag_p99_ms=" + millis(percentile(sorted, 99)),
                "min_ms=" + millis(sorted.get(0)),
                "max_ms=" + millis(sorted.get(sorted.size() - 1)),
                "polls_of_replica_b=" + polls,
                // the hops, in order: A's send → state-service, the apply, commit → acknowledged, send → B's view
                "outcome_delivery_mean_ms=" + meanMillis(stateBefore, stateAfter, "state_events_delivery_seconds"),
                "state_apply_mean_ms=" + meanMillis(stateBefore, stateAfter, "state_events_apply_seconds"),
                "state_queued_to_acknowledged_mean_ms="
                        + meanMillis(stateBefore, stateAfter, "state_outbox_publication_lag_seconds"),
                "snapshot_delivery_to_b_mean_ms="
                        + meanMillis(replicaBBefore, replicaBAfter, "gateway_view_state_delivery_seconds"),
                // the whole way as B's view times it (the snapshot's outcome_sent_at → held)
                "outcome_to_b_view_mean_ms=" + meanMillis(replicaBBefore, replicaBAfter, PROPAGATION),
                // the short way: A's send → B read it from route.outcomes and its view holds the failure
                "peer_outcome_to_b_view_mean_ms=" + meanMillis(replicaBBefore, replicaBAfter, PEER_OUTCOME),
                "peer_outcomes_applied_by_b="
                        + (replicaBAfter.count(PEER_OUTCOME + "_count")
                                - replicaBBefore.count(PEER_OUTCOME + "_count")),
                "requests=" + (SAMPLES + polls),
                "client_errors=0",
                "intended_400s_from_b=" + (polls - SAMPLES),
                counts);
        assertThat(sorted).hasSize(SAMPLES);
        assertThat(counts.missing()).isEmpty();
        // B took failures straight from route.outcomes, ahead of the snapshot (a sample whose snapshot won
        // the race is skipped there, so not every sample need show) ...
        assertThat(replicaBAfter.count(PEER_OUTCOME + "_count") - replicaBBefore.count(PEER_OUTCOME + "_count"))
                .isGreaterThanOrEqualTo(1);
        // ... and state-service's snapshots, saying which outcome caused them, still reached it (not one per
        // sample: the next sample starts before the last one's snapshot is in, and of several snapshots of
        // the credential in one poll only the newest is timed)
        assertThat(replicaBAfter.count(PROPAGATION + "_count") - replicaBBefore.count(PROPAGATION + "_count"))
                .isGreaterThanOrEqualTo(1);
    }

    /** Nearest-rank percentile of a sorted list. */
    static long percentile(List<Long> sorted, int percent) {
        int rank = (int) Math.ceil(percent / 100.0 * sorted.size());
        return sorted.get(Math.max(0, rank - 1));
    }

    /** The mean of a timer's observations between two readings, in ms. */
    private static String meanMillis(Metrics before, Metrics after, String timer) {
        double seconds = after.sum(timer + "_sum") - before.sum(timer + "_sum");
        long count = after.count(timer + "_count") - before.count(timer + "_count");
        return count == 0 ? "none" : String.format(Locale.ROOT, "%.1f", seconds * 1000 / count);
    }

    private static String millis(long micros) {
        return String.format(Locale.ROOT, "%.1f", micros / 1000.0);
    }

    private static void sleepMillis(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
