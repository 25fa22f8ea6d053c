package io.routegateway.core.recovery;

import java.time.ZoneId;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** One default zone for state-service and recovery-service, the old recovery key as a deprecated alias. */
class DefaultZoneTests {

    private static final ZoneId JVM = ZoneId.of("Europe/Berlin");

    @Test
    void theSharedKeyWinsOverTheDeprecatedOne() {
        assertThat(DefaultZone.resolve(Optional.of("Asia/Shanghai"), Optional.of("UTC"), JVM))
                .isEqualTo(ZoneId.of("Asia/Shanghai"));
    }

    @Test
    void theDeprecatedKeyStillWorksAlone() {
        assertThat(DefaultZone.resolve(Optional.empty(), Optional.of(" UTC "), JVM))
                .isEqualTo(ZoneId.of("UTC"));
        assertThat(DefaultZone.resolve(Optional.of("  "), Optional.of("UTC"), JVM))
                .isEqualTo(ZoneId.of("UTC"));
    }

    @Test
    void neitherSetIsTheJvmZone() {
        assertThat(DefaultZone.resolve(Optional.empty(), Optional.empty(), JVM)).isEqualTo(JVM);
        assertThat(DefaultZone.resolve(Optional.of(""), Optional.of(" "), JVM)).isEqualTo(JVM);
    }

    @ParameterizedTest
    @ValueSource(strings = {"Mars/Olympus", "Asia/Shanghai\u0000", "25:00"})
    void anUnknownZoneIsRefusedNamingItsKey(String id) {
        assertThatThrownBy(() -> DefaultZone.resolve(Optional.of(id), Optional.empty(), JVM))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("route.default-time-zone: unknown time zone")
                .hasMessageNotContaining("\u0000");
        assertThatThrownBy(() -> DefaultZone.resolve(Optional.empty(), Optional.of(id), JVM))
                .hasMessageStartingWith("recovery.default-time-zone: unknown time zone");
    }

    @Test
    void aHugeIdIsRefusedWithAShortMessage() {
        assertThatThrownBy(() -> DefaultZone.resolve(Optional.of("x".repeat(100_000)), Optional.empty(), JVM))
                .isInstanceOf(IllegalArgumentException.class)
                .satisfies(e -> assertThat(e.getMessage()).hasSizeLessThan(200));
    }
}
