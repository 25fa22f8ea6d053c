package io.routegateway.core.limits;

import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import static io.routegateway.core.limits.LeaseFixtures.at;
import static io.routegateway.core.limits.LeaseFixtures.opened;
import static org.assertj.core.api.Assertions.assertThat;

/** Event-loop threads admitting at once never overrun a limit: deciding and opening are one step. */
class AdmissionConcurrencyTests {

    static final int THREADS = 4;
    static final int ATTEMPTS_EACH = 500;

    int admittedConcurrently(AdmissionLedger ledger, Limits keyLimits, Limits teamLimits) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Integer>> results = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                String key = "k" + t;
                Callable<Integer> worker = () -> {
                    start.await();
                    int admitted = 0;
                    for (int i = 0; i < ATTEMPTS_EACH; i++) {
                        AdmissionRequest request =
                                new AdmissionRequest(key, keyLimits, "t1", teamLimits, 1, 10, null, ZoneOffset.UTC);
                        AdmissionDecision decision =
                                ledger.admit(at(1), request, opened(UUID.randomUUID(), key, "t1", at(1), 10));
                        if (decision.admitted()) {
                            admitted++;
                        }
                        // Meanwhile the reader thread's work: a peer's lease of another team.
                        ledger.apply(opened(UUID.randomUUID(), "peer", "t2", at(1), 1), at(1));
                    }
                    return admitted;
                };
                results.add(pool.submit(worker));
            }
            start.countDown();
            int admitted = 0;
            for (Future<Integer> result : results) {
                admitted += result.get(2, TimeUnit.MINUTES);
            }
            return admitted;
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aTeamsRpmIsNeverOverrunByConcurrentAdmissions() throws Exception {
        AdmissionLedger ledger = new AdmissionLedger();
        int admitted = admittedConcurrently(ledger, Limits.NONE, new Limits(777, null, null, null, null));
        assertThat(admitted).isEqualTo(777);
        assertThat(ledger.requests(SubjectKind.TEAM, "t1", at(1))).isEqualTo(777);
        assertThat(ledger.requests(SubjectKind.TEAM, "t2", at(1))).isEqualTo(THREADS * ATTEMPTS_EACH);
    }

    @Test
    void aTeamsParallelAndTpmLimitsAreNeverOverrunEither() throws Exception {
        AdmissionLedger ledger = new AdmissionLedger();
        assertThat(admittedConcurrently(ledger, Limits.NONE, new Limits(null, null, 123, null, null)))
                .isEqualTo(123);
        AdmissionLedger tokens = new AdmissionLedger();
        assertThat(admittedConcurrently(tokens, Limits.NONE, new Limits(null, 4_560L, null, null, null)))
                .isEqualTo(456);
        assertThat(tokens.tokens(SubjectKind.TEAM, "t1", at(1))).isEqualTo(4_560);
    }
}
