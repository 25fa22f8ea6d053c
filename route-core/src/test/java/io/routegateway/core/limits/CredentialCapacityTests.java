package io.routegateway.core.limits;

import java.util.UUID;

import io.routegateway.core.event.LeaseEvent;
import org.junit.jupiter.api.Test;

import static io.routegateway.core.limits.LeaseFixtures.at;
import static io.routegateway.core.limits.LeaseFixtures.attempt;
import static io.routegateway.core.limits.LeaseFixtures.closed;
import static io.routegateway.core.limits.LeaseFixtures.opened;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CredentialCapacityTests {

    final AdmissionLedger ledger = new AdmissionLedger();

    @Test
    void aCredentialIsFullAtItsParallelLimitUntilAnAttemptEnds() {
        CredentialLimits limits = new CredentialLimits(null, 2);
        LeaseEvent first = attempt(UUID.randomUUID(), "c1", at(0));
        assertThat(ledger.openAttempt(at(0), limits, first)).isTrue();
        assertThat(CredentialCapacity.isFull(at(0), "c1", limits, ledger)).isFalse();
        assertThat(ledger.openAttempt(at(0), limits, attempt(UUID.randomUUID(), "c1", at(0))))
                .isTrue();
        assertThat(CredentialCapacity.isFull(at(1), "c1", limits, ledger)).isTrue();
        assertThat(ledger.openAttempt(at(1), limits, attempt(UUID.randomUUID(), "c1", at(1))))
                .isFalse();
        assertThat(ledger.inFlight(SubjectKind.CREDENTIAL, "c1", at(1))).isEqualTo(2);
        ledger.apply(closed(first, at(2), null, null), at(2));
        assertThat(CredentialCapacity.isFull(at(2), "c1", limits, ledger)).isFalse();
    }

    @Test
    void aCredentialIsFullAtItsRpmLimitForTheMinute() {
        CredentialLimits limits = new CredentialLimits(2, null);
        for (int second = 0; second < 2; second++) {
            LeaseEvent open = attempt(UUID.randomUUID(), "c1", at(second));
            assertThat(ledger.openAttempt(at(second), limits, open)).isTrue();
            ledger.apply(closed(open, at(second), 1L, null), at(second));
        }
        assertThat(CredentialCapacity.isFull(at(59), "c1", limits, ledger)).isTrue();
        assertThat(CredentialCapacity.isFull(at(60), "c1", limits, ledger)).isFalse();
        assertThat(CredentialCapacity.isFull(at(59), "c2", limits, ledger))
                .as("another credential")
                .isFalse();
    }

    @Test
    void requestLeasesDoNotFillACredential() {
        ledger.apply(opened(UUID.randomUUID(), "k1", null, at(0), 1), at(0));
        assertThat(CredentialCapacity.isFull(at(0), "c1", new CredentialLimits(1, 1), ledger))
                .isFalse();
    }

    @Test
    void noLimitsIsNeverFull() {
        ledger.apply(attempt(UUID.randomUUID(), "c1", at(0)), at(0));
        assertThat(CredentialCapacity.isFull(at(0), "c1", CredentialLimits.NONE, ledger))
                .isFalse();
        assertThat(CredentialCapacity.isFull(at(0), "c1", null, ledger)).isFalse();
        assertThat(CredentialCapacity.REASON).isEqualTo("credential_full");
    }

    @Test
    void openAttemptTakesAnAttemptsOpenedRecord() {
        LeaseEvent request = opened(UUID.randomUUID(), "k1", null, at(0), 1);
        assertThatThrownBy(() -> ledger.openAttempt(at(0), CredentialLimits.NONE, request))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
