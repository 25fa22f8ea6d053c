package io.routegateway.state.outcome;

import java.time.Instant;
import java.util.Map;

import io.routegateway.core.state.AccountState;
import io.routegateway.core.state.AccountStatus;
import io.routegateway.core.state.CredentialHealth;
import io.routegateway.core.state.ModelState;
import io.routegateway.core.state.ModelStatus;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Only what changed is written. */
class HealthDiffTests {

    private static final Instant AT = Instant.parse("2026-01-01T00:00:00Z");
    private static final ModelState PAUSED = ModelState.created("paused-model", ModelStatus.PAUSED, AT);
    private static final ModelState COOLING = new ModelState(
            "cooling-model", ModelStatus.OK, 1, AT.plusSeconds(10), 1, "fp", "upstream_status", "429", null, AT, AT);

    @Test
    void equalStatesWriteNothing() {
        CredentialHealth health = new CredentialHealth(AccountState.HEALTHY, Map.of(PAUSED.modelKey(), PAUSED));
        HealthDiff diff = HealthDiff.between(health, health);
        assertThat(diff.changesState()).isFalse();
        assertThat(diff.account()).isNull();
        assertThat(diff.upserts()).isEmpty();
        assertThat(diff.deletions()).isEmpty();
    }

    @Test
    void newChangedAndRemovedRowsAreSeparated() {
        CredentialHealth before = new CredentialHealth(
                AccountState.HEALTHY, Map.of(PAUSED.modelKey(), PAUSED, COOLING.modelKey(), COOLING));
        ModelState pausedAgain = PAUSED.withStatus(ModelStatus.OK, AT.plusSeconds(1));
        ModelState fresh = ModelState.created("fresh-model", ModelStatus.OK, AT);
        CredentialHealth after = new CredentialHealth(
                AccountState.HEALTHY, Map.of(pausedAgain.modelKey(), pausedAgain, fresh.modelKey(), fresh));

        HealthDiff diff = HealthDiff.between(before, after);

        assertThat(diff.account()).isNull();
        assertThat(diff.upserts()).containsExactlyInAnyOrder(pausedAgain, fresh);
        assertThat(diff.deletions()).containsExactly("cooling-model");
        assertThat(diff.changesState()).isTrue();
    }

    @Test
    void aChangedAccountIsWrittenWithoutModelRows() {
        CredentialHealth before = CredentialHealth.HEALTHY;
        CredentialHealth after = before.withAccount(AccountState.HEALTHY.withStatus(AccountStatus.PAUSED));
        HealthDiff diff = HealthDiff.between(before, after);
        assertThat(diff.account().status()).isEqualTo(AccountStatus.PAUSED);
        assertThat(diff.upserts()).isEmpty();
        assertThat(diff.deletions()).isEmpty();
    }
}
