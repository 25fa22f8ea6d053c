package io.routegateway.core.limits;

import java.util.UUID;

import io.routegateway.core.event.LeaseEvent;
import org.junit.jupiter.api.Test;

import static io.routegateway.core.limits.LeaseFixtures.at;
import static io.routegateway.core.limits.LeaseFixtures.closed;
import static io.routegateway.core.limits.LeaseFixtures.opened;
import static org.assertj.core.api.Assertions.assertThat;

class AdmissionSmokeTests {

    @Test
    void anRpmLimitAdmitsUpToItAndRefusesTheNext() {
        AdmissionLedger ledger = new AdmissionLedger();
        Limits limits = new Limits(2, null, null, null, null);
        for (int i = 0; i < 2; i++) {
            AdmissionRequest request = new AdmissionRequest("k1", limits, null, null, 1, 10, null, null);
            AdmissionDecision decision = ledger.admit(at(i), request, opened(UUID.randomUUID(), "k1", null, at(i), 10));
            assertThat(decision.admitted()).isTrue();
        }
        AdmissionRequest request = new AdmissionRequest("k1", limits, null, null, 1, 10, null, null);
        AdmissionDecision refused = ledger.admit(at(5), request, opened(UUID.randomUUID(), "k1", null, at(5), 10));
        assertThat(refused.admitted()).isFalse();
        assertThat(refused.code()).isEqualTo(AdmissionCode.RATE_LIMIT_EXCEEDED);
        assertThat(refused.retryAfterSeconds()).isEqualTo(55);
        assertThat(refused.headers().toMap())
                .containsEntry("x-ratelimit-limit-requests", "2")
                .containsEntry("x-ratelimit-remaining-requests", "0")
                .containsEntry("x-ratelimit-reset-requests", "56s");
    }

    @Test
    void settledTokensCountAtClose() {
        AdmissionLedger ledger = new AdmissionLedger();
        LeaseEvent open = opened(UUID.randomUUID(), "k1", "t1", at(0), 500);
        ledger.apply(open, at(0));
        assertThat(ledger.tokens(SubjectKind.TEAM, "t1", at(1))).isEqualTo(500);
        ledger.apply(closed(open, at(2), 120L, 7L), at(2));
        assertThat(ledger.tokens(SubjectKind.TEAM, "t1", at(3))).isEqualTo(120);
        assertThat(ledger.inFlight(SubjectKind.KEY, "k1", at(3))).isZero();
        assertThat(ledger.tokens(SubjectKind.KEY, "k1", at(62))).isZero();
    }
}
