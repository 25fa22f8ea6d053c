package io.routegateway.state.outcome;

import java.time.Clock;
import java.time.Duration;
import java.util.UUID;

import jakarta.inject.Inject;

import io.quarkus.test.junit.QuarkusTest;
import io.routegateway.state.repository.ProcessedEventEntity;
import io.routegateway.state.support.OutcomeFixtures;
import org.junit.jupiter.api.Test;

import static io.routegateway.state.support.OutcomeFixtures.processed;
import static org.assertj.core.api.Assertions.assertThat;

/** Applied event ids are forgotten only after the retention (default 14 days). */
@QuarkusTest
class ProcessedEventRetentionTests {

    @Inject
    ProcessedEventRetention retention;

    @Inject
    Clock clock;

    @Test
    void idsOlderThanTheRetentionAreDeletedAndRecentOnesKept() {
        UUID old = UUID.randomUUID();
        UUID recent = UUID.randomUUID();
        OutcomeFixtures.inTransaction(() -> new ProcessedEventEntity(
                        old, "cred-old", "attempt-succeeded.v1", clock.instant().minus(Duration.ofDays(15)))
                .persist()
                .flatMap(ignored -> new ProcessedEventEntity(
                                recent,
                                "cred-recent",
                                "attempt-succeeded.v1",
                                clock.instant().minus(Duration.ofDays(13)).plusMillis(1))
                        .persist()));

        OutcomeFixtures.await(() -> retention.prune());

        assertThat(processed(old)).isZero();
        assertThat(processed(recent)).isEqualTo(1);
    }
}
