package io.routegateway.core.select;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import io.routegateway.core.event.AccessKeySnapshot;
import io.routegateway.core.event.CredentialEvent;
import io.routegateway.core.event.CredentialSnapshot;
import io.routegateway.core.event.OutcomePosition;
import io.routegateway.core.state.ModelState;
import org.junit.jupiter.api.Test;

import static io.routegateway.core.select.Fixtures.NOW;
import static io.routegateway.core.select.Fixtures.cred;
import static io.routegateway.core.select.Fixtures.group;
import static io.routegateway.core.select.Fixtures.key;
import static org.assertj.core.api.Assertions.assertThat;

/** Own and peers' outcomes on a gateway's view: the same transition, peers' failures only, never twice. */
class ViewOutcomesTests {

    private static final OutcomePosition MARK = new OutcomePosition(3, 100);
    private static final AccessKeySnapshot KEY = key("k").groups("g1").build();

    private static PoolView view(CredentialSnapshot credential) {
        return PoolView.of(List.of(credential), List.of(group("g1").build()), List.of(KEY));
    }

    private static CredentialEvent failure(String modelKey) {
        return new CredentialEvent.TransientFailureRecorded(
                UUID.randomUUID(), "c", NOW, modelKey, "upstream_status", 429, "upstream returned 429", null);
    }

    private static CredentialEvent success(String modelKey) {
        return new CredentialEvent.AttemptSucceeded(UUID.randomUUID(), "c", NOW, modelKey);
    }

    private static int failures(PoolView view, String modelKey) {
        return view.credential("c")
                .orElseThrow()
                .health()
                .model(modelKey)
                .map(ModelState::transientFailureCount)
                .orElse(0);
    }

    @Test
    void aPeersFailureAfterTheMarkIsAppliedAndMovesTheMarkToItsRecord() {
        PoolView before = view(cred("c").serves("m").outcomePosition(MARK).build());
        OutcomePosition next = new OutcomePosition(3, 101);

        PoolView after = ViewOutcomes.applied(before, failure("m"), next, 0);

        assertThat(failures(after, "m")).isEqualTo(1);
        assertThat(after.credential("c").orElseThrow().outcomePosition()).isEqualTo(next);
        // the version is kept: state-service's next snapshot replaces the local change
        assertThat(after.credential("c").orElseThrow().version())
                .isEqualTo(before.credential("c").orElseThrow().version());
    }

    @Test
    void aRecordTheHeldStateAlreadyReflectsIsNotCountedAgain() {
        PoolView before = view(cred("c").serves("m").outcomePosition(MARK).build());

        assertThat(ViewOutcomes.applied(before, failure("m"), new OutcomePosition(3, 100), 0))
                .isSameAs(before);
        assertThat(ViewOutcomes.applied(before, failure("m"), new OutcomePosition(3, 7), 0))
                .isSameAs(before);

        // read twice (applied, then the same record again): counted once
        OutcomePosition next = new OutcomePosition(3, 101);
        CredentialEvent failure = failure("m");
        PoolView once = ViewOutcomes.applied(before, failure, next, 0);
        assertThat(ViewOutcomes.applied(once, failure, next, 0)).isSameAs(once);
        assertThat(failures(once, "m")).isEqualTo(1);
    }

    @Test
    void aRecordOnAnotherPartitionOrWithoutAMarkIsNotCoveredAndApplies() {
        PoolView marked = view(cred("c").serves("m").outcomePosition(MARK).build());
        PoolView unmarked = view(cred("c").serves("m").build());

        assertThat(failures(ViewOutcomes.applied(marked, failure("m"), new OutcomePosition(0, 5), 0), "m"))
                .isEqualTo(1);
        assertThat(failures(ViewOutcomes.applied(unmarked, failure("m"), new OutcomePosition(0, 5), 0), "m"))
                .isEqualTo(1);
    }

    @Test
    void onlyFailuresAreTakenFromPeersWhileOwnSuccessesStillClear() {
        PoolView failing = view(cred("c").serves("m").outcomePosition(MARK).build());
        failing = ViewOutcomes.applied(failing, failure("m"), new OutcomePosition(3, 101), 0);
        assertThat(failures(failing, "m")).isEqualTo(1);

        // a peer's success, test or reactivation waits for state-service's snapshot
        OutcomePosition later = new OutcomePosition(3, 102);
        assertThat(ViewOutcomes.applied(failing, success("m"), later, 0)).isSameAs(failing);
        assertThat(ViewOutcomes.applied(
                        failing,
                        new CredentialEvent.ScheduledReactivationTriggered(UUID.randomUUID(), "c", NOW, "03:00"),
                        later,
                        0))
                .isSameAs(failing);

        // this replica's own success clears at once, and keeps the mark it had
        PoolView cleared = ViewOutcomes.applied(failing, success("m"), 0);
        assertThat(failures(cleared, "m")).isZero();
        assertThat(cleared.credential("c").orElseThrow().outcomePosition()).isEqualTo(new OutcomePosition(3, 101));
    }

    @Test
    void anOwnFailureAppliesWithoutMovingTheMark() {
        PoolView before = view(cred("c").serves("m").outcomePosition(MARK).build());

        PoolView after = ViewOutcomes.applied(before, failure("m"), 0);

        assertThat(failures(after, "m")).isEqualTo(1);
        assertThat(after.credential("c").orElseThrow().outcomePosition()).isEqualTo(MARK);
    }

    @Test
    void anUnknownCredentialOrAnEventThatChangesNothingLeavesTheViewAsItIs() {
        PoolView before = view(cred("other").serves("m").build());
        assertThat(ViewOutcomes.applied(before, failure("m"), new OutcomePosition(0, 1), 0))
                .isSameAs(before);

        PoolView healthy = view(cred("c").serves("m").build());
        assertThat(ViewOutcomes.applied(healthy, success("m"), 0)).isSameAs(healthy);
    }

    @Test
    void theFailureKindsAreExactlyTheThreeFailureRecords() {
        assertThat(ViewOutcomes.isFailure(failure("m"))).isTrue();
        assertThat(ViewOutcomes.isFailure(new CredentialEvent.PermanentFailureRecorded(
                        UUID.randomUUID(), "c", Instant.EPOCH, "m", "invalid_grant", 401, "void", null)))
                .isTrue();
        assertThat(ViewOutcomes.isFailure(success("m"))).isFalse();
        assertThat(ViewOutcomes.isFailure(new CredentialEvent.ModelCleared(UUID.randomUUID(), "c", NOW, "m")))
                .isFalse();
    }
}
