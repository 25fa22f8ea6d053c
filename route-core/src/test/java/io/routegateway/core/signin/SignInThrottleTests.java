package io.routegateway.core.signin;

import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SignInThrottleTests {

    private static final Instant T0 = Instant.parse("2026-12-06T12:00:00Z");
    private static final SignInThrottle.Settings THREE_PER_MINUTE =
            new SignInThrottle.Settings(true, 3, Duration.ofMinutes(1), Duration.ofMinutes(5), 100);

    @Test
    void aSourceIsThrottledAfterMaxFailuresWithinTheWindowAndOnlyThatSource() {
        SignInThrottle throttle = new SignInThrottle(THREE_PER_MINUTE);

        assertThat(throttle.failed("10.0.0.1", T0)).isEqualTo(new SignInThrottle.Failure(false, 1));
        assertThat(throttle.failed("10.0.0.1", T0.plusSeconds(10))).isEqualTo(new SignInThrottle.Failure(false, 2));
        assertThat(throttle.check("10.0.0.1", T0.plusSeconds(11))).isInstanceOf(SignInThrottle.Decision.Allowed.class);
        assertThat(throttle.failed("10.0.0.1", T0.plusSeconds(20)).lockoutStarted())
                .isTrue();

        assertThat(throttle.check("10.0.0.1", T0.plusSeconds(20)))
                .isEqualTo(new SignInThrottle.Decision.Throttled(300));
        assertThat(throttle.check("10.0.0.1", T0.plusSeconds(319))).isEqualTo(new SignInThrottle.Decision.Throttled(1));
        assertThat(throttle.check("10.0.0.2", T0.plusSeconds(21))).isInstanceOf(SignInThrottle.Decision.Allowed.class);
    }

    @Test
    void theLockoutEndsAndTheSourceStartsAfresh() {
        SignInThrottle throttle = new SignInThrottle(THREE_PER_MINUTE);
        for (int i = 0; i < 3; i++) {
            throttle.failed("10.0.0.1", T0);
        }

        assertThat(throttle.check("10.0.0.1", T0.plusSeconds(300))).isInstanceOf(SignInThrottle.Decision.Allowed.class);
        assertThat(throttle.failed("10.0.0.1", T0.plusSeconds(301))).isEqualTo(new SignInThrottle.Failure(false, 1));
    }

    @Test
    void failuresSpreadBeyondTheWindowNeverThrottle() {
        SignInThrottle throttle = new SignInThrottle(THREE_PER_MINUTE);
        Instant now = T0;
        for (int i = 0; i < 100; i++) {
            // two failures per window of a minute, forever
            throttle.failed("10.0.0.1", now);
            throttle.failed("10.0.0.1", now.plusSeconds(1));
            now = now.plusSeconds(61);
            assertThat(throttle.check("10.0.0.1", now)).isInstanceOf(SignInThrottle.Decision.Allowed.class);
        }
    }

    @Test
    void failuresDuringTheLockoutNeitherExtendItNorStartAnother() {
        SignInThrottle throttle = new SignInThrottle(THREE_PER_MINUTE);
        for (int i = 0; i < 3; i++) {
            throttle.failed("10.0.0.1", T0);
        }

        for (int i = 0; i < 50; i++) {
            assertThat(throttle.failed("10.0.0.1", T0.plusSeconds(i)).lockoutStarted())
                    .isFalse();
        }

        assertThat(throttle.check("10.0.0.1", T0.plusSeconds(300))).isInstanceOf(SignInThrottle.Decision.Allowed.class);
    }

    @Test
    void aFloodOfAddressesIsBoundedAndTheThrottledSourceThatKeepsTryingStays() {
        SignInThrottle throttle = new SignInThrottle(THREE_PER_MINUTE);
        for (int i = 0; i < 3; i++) {
            throttle.failed("10.0.0.1", T0);
        }

        for (int i = 0; i < 100_000; i++) {
            throttle.failed("203.0." + (i / 256 % 256) + "." + (i % 256) + "-" + i, T0.plusMillis(i));
            if (i % 50 == 0) {
                // the attacker keeps knocking: it stays among the most recently seen
                assertThat(throttle.check("10.0.0.1", T0.plusMillis(i)))
                        .isInstanceOf(SignInThrottle.Decision.Throttled.class);
            }
        }

        assertThat(throttle.size()).isLessThanOrEqualTo(100);
        assertThat(throttle.check("10.0.0.1", T0.plusSeconds(200)))
                .isInstanceOf(SignInThrottle.Decision.Throttled.class);
    }

    @Test
    void staleEntriesArePruned() {
        SignInThrottle throttle = new SignInThrottle(THREE_PER_MINUTE);
        throttle.failed("10.0.0.1", T0);
        throttle.failed("10.0.0.2", T0);
        for (int i = 0; i < 3; i++) {
            throttle.failed("10.0.0.3", T0);
        }

        throttle.prune(T0.plusSeconds(120));

        assertThat(throttle.size())
                .as("the throttled source stays until its lockout ends")
                .isEqualTo(1);
        throttle.prune(T0.plusSeconds(300));
        assertThat(throttle.size()).isZero();
    }

    @Test
    void offAllowsEverything() {
        SignInThrottle throttle = new SignInThrottle(
                new SignInThrottle.Settings(false, 1, Duration.ofMinutes(1), Duration.ofMinutes(5), 100));
        for (int i = 0; i < 10; i++) {
            throttle.failed("10.0.0.1", T0);
        }

        assertThat(throttle.check("10.0.0.1", T0)).isInstanceOf(SignInThrottle.Decision.Allowed.class);
        assertThat(throttle.size()).isZero();
    }

    @Test
    void badSettingsAreRefused() {
        assertThatThrownBy(() -> new SignInThrottle.Settings(true, 0, Duration.ofMinutes(1), Duration.ofMinutes(1), 1))
                .hasMessageContaining("max-failures");
        assertThatThrownBy(() -> new SignInThrottle.Settings(true, 1, Duration.ZERO, Duration.ofMinutes(1), 1))
                .hasMessageContaining("window");
        assertThatThrownBy(() -> new SignInThrottle.Settings(true, 1, Duration.ofMinutes(1), Duration.ofSeconds(-1), 1))
                .hasMessageContaining("lockout");
        assertThatThrownBy(() -> new SignInThrottle.Settings(true, 1, Duration.ofMinutes(1), Duration.ofMinutes(1), 0))
                .hasMessageContaining("max-sources");
    }

    @Test
    void anIpv4SourceIsItsAddressAndAnIpv6SourceItsSlash64() {
        assertThat(SignInThrottle.source("192.0.2.7")).isEqualTo("192.0.2.7");
        assertThat(SignInThrottle.source("::ffff:192.0.2.7")).isEqualTo("192.0.2.7");
        assertThat(SignInThrottle.source("[2001:db8:1:2:aaaa::1]")).isEqualTo("2001:db8:1:2::/64");
        assertThat(SignInThrottle.source("2001:db8:1:2:bbbb:cccc:dddd:eeee"))
                .as("another address of the same /64 is the same source")
                .isEqualTo("2001:db8:1:2::/64");
        assertThat(SignInThrottle.source("2001:DB8:1:3::1%eth0")).isEqualTo("2001:db8:1:3::/64");
    }

    @Test
    void anythingThatIsNoAddressLiteralIsOneUnknownSourceAndIsNeverLookedUp() {
        assertThat(SignInThrottle.source(null)).isEqualTo("unknown");
        assertThat(SignInThrottle.source("")).isEqualTo("unknown");
        assertThat(SignInThrottle.source("localhost")).isEqualTo("unknown");
        assertThat(SignInThrottle.source("999.1.1.1")).isEqualTo("unknown");
        assertThat(SignInThrottle.source("1.2.3")).isEqualTo("unknown");
        assertThat(SignInThrottle.source("1.2.3.4\u0000")).isEqualTo("unknown");
        assertThat(SignInThrottle.source("a".repeat(100_000))).isEqualTo("unknown");
        assertThat(SignInThrottle.source("dead::beef::1")).isEqualTo("unknown");
    }
}
