package io.routegateway.state.metrics;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.routegateway.state.outcome.ApplyResult;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The meter names and tags are read by dashboards, alerts and tests: the one holder registers each
 * under the name the docs list and counts what its callers report.
 */
class StateMetricsTests {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final StateMetrics metrics = new StateMetrics(registry);

    @Test
    void everyUntaggedMeterIsRegisteredAtStartUnderItsDocumentedName() {
        AtomicLong pending = new AtomicLong(7);
        AtomicLong failed = new AtomicLong(2);
        metrics.outboxGauges(pending::get, failed::get);

        List<String> names = registry.getMeters().stream()
                .map(meter -> meter.getId().getName())
                .toList();

        assertThat(names)
                .contains(
                        "state.events.applied",
                        "state.events.duplicate",
                        "state.events.stale",
                        "state.events.apply",
                        "state.usage.records",
                        "state.outbox.publication.lag",
                        "state.outbox.size",
                        "state.outbox.published",
                        "state.outbox.send.failures",
                        "state.outbox.dead_lettered",
                        "state.outbox.failed",
                        "state.usage.delivery",
                        "state.oauth.refreshes",
                        "state.oauth.expired");
        assertThat(registry.find("state.events.applied").counters())
                .extracting(counter -> counter.getId().getTag("result"))
                .containsExactlyInAnyOrder("changed", "unchanged", "noop");
    }

    @Test
    void theDeadLetterAndRefreshCountersExistForEveryReasonBeforeTheFirstOne() {
        // an alert on increase() sees the first dead letter only if the series existed before it
        assertThat(registry.find("state.events.dead_lettered").counters())
                .extracting(counter -> counter.getId().getTag("reason"))
                .containsExactlyInAnyOrder(
                        "signature", "unparsable", "unstorable", "unknown_credential", "rejected", "retries_exhausted");
        assertThat(registry.find("state.usage.dead_lettered").counters())
                .extracting(counter -> counter.getId().getTag("reason"))
                .containsExactlyInAnyOrder(
                        "signature", "unparsable", "unstorable", "database_rejected", "retries_exhausted");
        assertThat(registry.find("state.oauth.refreshes").counters())
                .extracting(counter -> counter.getId().getTag("result"))
                .containsExactlyInAnyOrder("refreshed", "failed", "revoked");
        assertThat(registry.find("state.events.dead_lettered").counters())
                .allSatisfy(counter -> assertThat(counter.count()).isZero());
    }

    @Test
    void refreshesAreCountedByResultAndExpiriesApart() {
        metrics.oauthRefreshed(StateMetrics.RefreshResult.REFRESHED);
        metrics.oauthRefreshed(StateMetrics.RefreshResult.FAILED);
        metrics.oauthRefreshed(StateMetrics.RefreshResult.FAILED);
        metrics.oauthExpired();

        assertThat(registry.get("state.oauth.refreshes")
                        .tag("result", "refreshed")
                        .counter()
                        .count())
                .isEqualTo(1.0);
        assertThat(registry.get("state.oauth.refreshes")
                        .tag("result", "failed")
                        .counter()
                        .count())
                .isEqualTo(2.0);
        assertThat(registry.get("state.oauth.refreshes")
                        .tag("result", "revoked")
                        .counter()
                        .count())
                .isZero();
        assertThat(registry.get("state.oauth.expired").counter().count()).isEqualTo(1.0);
    }

    @Test
    void usageDeliveryIsTimedFromTheMessagesStampAndUnstampedOnesAreNot() {
        metrics.usageDelivered(1_000, 3_500);
        metrics.usageDelivered(-1, 3_500);
        // a stamp ahead of this clock counts as zero
        metrics.usageDelivered(4_000, 3_500);

        assertThat(registry.get("state.usage.delivery").timer().count()).isEqualTo(2);
        assertThat(registry.get("state.usage.delivery").timer().max(TimeUnit.MILLISECONDS))
                .isEqualTo(2_500.0);
    }

    @Test
    void theOutboxGaugesReadTheRelayAtEachScrape() {
        AtomicLong pending = new AtomicLong(7);
        AtomicLong failed = new AtomicLong(2);
        metrics.outboxGauges(pending::get, failed::get);

        pending.set(11);
        failed.set(0);

        assertThat(registry.get("state.outbox.size").gauge().value()).isEqualTo(11.0);
        assertThat(registry.get("state.outbox.failed").gauge().value()).isZero();
    }

    @Test
    void eachApplyResultIsTimedAndCountedUnderItsOwnMeter() {
        for (ApplyResult.Kind kind : ApplyResult.Kind.values()) {
            metrics.applied(metrics.startApply(), new ApplyResult(UUID.randomUUID(), "c1", kind, 1, List.of()));
        }
        metrics.noOp();

        assertThat(registry.get("state.events.applied")
                        .tag("result", "changed")
                        .counter()
                        .count())
                .isEqualTo(1.0);
        assertThat(registry.get("state.events.applied")
                        .tag("result", "unchanged")
                        .counter()
                        .count())
                .isEqualTo(1.0);
        assertThat(registry.get("state.events.applied")
                        .tag("result", "noop")
                        .counter()
                        .count())
                .isEqualTo(2.0);
        assertThat(registry.get("state.events.duplicate").counter().count()).isEqualTo(1.0);
        assertThat(registry.get("state.events.stale").counter().count()).isEqualTo(1.0);
        // the fast path's noOp() is not a transaction and not timed: only the applied() calls are
        assertThat(registry.get("state.events.apply").timer().count()).isEqualTo(ApplyResult.Kind.values().length);
    }

    @Test
    void taggedCountersCountPerTagValue() {
        metrics.eventDeadLettered("unparsable");
        metrics.eventDeadLettered("unparsable");
        metrics.eventDeadLettered("rejected");
        metrics.usageDeadLettered("database_rejected");
        metrics.sanitised("outcomes");
        metrics.sanitised("usage");
        metrics.sanitised("usage");
        metrics.usageRecords(5);

        assertThat(registry.get("state.events.dead_lettered")
                        .tag("reason", "unparsable")
                        .counter()
                        .count())
                .isEqualTo(2.0);
        assertThat(registry.get("state.events.dead_lettered")
                        .tag("reason", "rejected")
                        .counter()
                        .count())
                .isEqualTo(1.0);
        assertThat(registry.get("state.usage.dead_lettered")
                        .tag("reason", "database_rejected")
                        .counter()
                        .count())
                .isEqualTo(1.0);
        assertThat(registry.get("state.records.sanitised")
                        .tag("topic", "outcomes")
                        .counter()
                        .count())
                .isEqualTo(1.0);
        assertThat(registry.get("state.records.sanitised")
                        .tag("topic", "usage")
                        .counter()
                        .count())
                .isEqualTo(2.0);
        assertThat(registry.get("state.usage.records").counter().count()).isEqualTo(5.0);
    }

    @Test
    void thePublicationLagIsRecordedPerAcknowledgementAndNeverNegative() {
        metrics.outboxPublished(Duration.ofMillis(40));
        // a row stamped by a clock ahead of this replica's: recorded as zero, not dropped
        metrics.outboxPublished(Duration.ofMillis(-5));
        metrics.outboxSendFailed();
        metrics.outboxDeadLettered();

        assertThat(registry.get("state.outbox.published").counter().count()).isEqualTo(2.0);
        assertThat(registry.get("state.outbox.publication.lag").timer().count()).isEqualTo(2);
        assertThat(registry.get("state.outbox.publication.lag").timer().max(TimeUnit.MILLISECONDS))
                .isEqualTo(40.0);
        assertThat(registry.get("state.outbox.publication.lag").timer().totalTime(TimeUnit.MILLISECONDS))
                .isEqualTo(40.0);
        assertThat(registry.get("state.outbox.send.failures").counter().count()).isEqualTo(1.0);
        assertThat(registry.get("state.outbox.dead_lettered").counter().count()).isEqualTo(1.0);
    }
}
