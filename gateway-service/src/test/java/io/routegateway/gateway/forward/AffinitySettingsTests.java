package io.routegateway.gateway.forward;

import java.time.Duration;
import java.time.Instant;

import io.routegateway.core.event.RuntimeSettingsSnapshot;
import io.routegateway.core.select.AffinityTable;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Published affinity settings against the configured ones, without a gateway. */
class AffinitySettingsTests {

    private static final Duration CONFIGURED_TTL = Duration.ofMinutes(30);
    private static final int CONFIGURED_CAPACITY = 10_000;

    @Test
    void publishedSettingsWin() {
        assertThat(effective(settings(120, 500))).isEqualTo(new AffinitySettings(Duration.ofSeconds(120), 500));
    }

    @Test
    void theConfiguredOnesHoldUntilUsableSettingsArePublished() {
        AffinitySettings configured = new AffinitySettings(CONFIGURED_TTL, CONFIGURED_CAPACITY);
        assertThat(effective(null)).isEqualTo(configured);
        assertThat(effective(settings(0, 500))).isEqualTo(configured);
        assertThat(effective(settings(120, 0))).isEqualTo(configured);
        assertThat(effective(settings(-1, -1))).isEqualTo(configured);
        assertThat(effective(settings(1, 1))).isEqualTo(new AffinitySettings(Duration.ofSeconds(1), 1));
    }

    @Test
    void aTableFitsOnlyWithTheSameTtlAndCapacity() {
        AffinitySettings wanted = new AffinitySettings(Duration.ofSeconds(120), 500);
        assertThat(wanted.fits(new AffinityTable(Duration.ofSeconds(120), 500))).isTrue();
        assertThat(wanted.fits(new AffinityTable(Duration.ofSeconds(121), 500))).isFalse();
        assertThat(wanted.fits(new AffinityTable(Duration.ofSeconds(120), 501))).isFalse();
    }

    private static AffinitySettings effective(RuntimeSettingsSnapshot published) {
        return AffinitySettings.effective(published, CONFIGURED_TTL, CONFIGURED_CAPACITY);
    }

    private static RuntimeSettingsSnapshot settings(long ttlSeconds, int capacity) {
        return new RuntimeSettingsSnapshot(3, 0, ttlSeconds, capacity, Instant.parse("2026-12-01T10:00:00Z"));
    }
}
