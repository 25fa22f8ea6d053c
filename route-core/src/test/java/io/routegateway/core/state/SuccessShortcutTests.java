package io.routegateway.core.state;

import java.util.Map;

import io.routegateway.core.event.CredentialEvent.AttemptSucceeded;
import io.routegateway.core.event.OutcomePosition;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import static io.routegateway.core.state.Events.failure;
import static io.routegateway.core.state.Events.status;
import static io.routegateway.core.state.Events.success;
import static io.routegateway.core.state.Events.t;
import static io.routegateway.core.state.StateTransitionTests.COOLDOWN_ON;
import static io.routegateway.core.state.StateTransitionTests.SOL_AND_GLM;
import static io.routegateway.core.state.StateTransitionTests.profile;
import static org.assertj.core.api.Assertions.assertThat;

/** The fast path of state-service for successes: when a success may be acknowledged unapplied. */
class SuccessShortcutTests {

    static final CredentialProfile PROFILE = profile(COOLDOWN_ON, SOL_AND_GLM);

    @Nested
    class ChangesNothing {

        @Test
        void aSuccessOnAHealthyAccountWithoutModelRowsChangesNothing() {
            assertThat(SuccessShortcut.changesNothing(CredentialHealth.HEALTHY, success(1, "upstream-sol")))
                    .isTrue();
            assertThat(SuccessShortcut.changesNothing(CredentialHealth.HEALTHY, success(1, null)))
                    .isTrue();
        }

        @Test
        void aStoredAccountCountIsSomethingToClear() {
            CredentialHealth stored =
                    StateTransitionTests.apply(PROFILE, CredentialHealth.HEALTHY, status(0, null, 500));
            assertThat(stored.account().transientFailureCount()).isEqualTo(1);

            assertThat(SuccessShortcut.changesNothing(stored, success(30, "upstream-sol")))
                    .isFalse();
            assertThat(SuccessShortcut.changesNothing(stored, success(30, null)))
                    .isFalse();
        }

        @Test
        void aStoredAccountCooldownWithoutCountIsSomethingToClear() {
            AccountState cooling = new AccountState(AccountStatus.OK, 0, t(60), t(60), null, null, null, 0, null);
            CredentialHealth stored = new CredentialHealth(cooling, Map.of());

            assertThat(SuccessShortcut.changesNothing(stored, success(1, "upstream-sol")))
                    .isFalse();
        }

        @Test
        void aStoredAccountStreakIsSomethingToClear() {
            AccountState streak =
                    new AccountState(AccountStatus.ERROR, 0, null, null, "semantic_response_failed", "q", null, 1, "f");
            CredentialHealth stored = new CredentialHealth(streak, Map.of());

            assertThat(SuccessShortcut.changesNothing(stored, success(1, "upstream-sol")))
                    .isFalse();
        }

        @Test
        void theHitModelsRowIsSomethingToClearEvenWhenItsCooldownPassed() {
            CredentialHealth failed =
                    StateTransitionTests.apply(PROFILE, CredentialHealth.HEALTHY, status(0, "upstream-sol", 429));
            // the account count alone would already make it a change: look at the row by itself
            CredentialHealth rowOnly = new CredentialHealth(AccountState.HEALTHY, failed.models());

            assertThat(SuccessShortcut.changesNothing(rowOnly, success(3600, "upstream-sol")))
                    .isFalse();
        }

        @Test
        void aSiblingModelsRowIsNotTheSuccesssBusiness() {
            CredentialHealth failed =
                    StateTransitionTests.apply(PROFILE, CredentialHealth.HEALTHY, status(0, "upstream-glm", 429));
            CredentialHealth siblingOnly = new CredentialHealth(AccountState.HEALTHY, failed.models());

            assertThat(SuccessShortcut.changesNothing(siblingOnly, success(1, "upstream-sol")))
                    .isTrue();
        }

        @Test
        void aCleanPauseIsLeftAsItIsAndAPauseWithFailuresIsReset() {
            ModelState cleanPause = ModelState.created("upstream-sol", ModelStatus.PAUSED, t(0));
            CredentialHealth clean = new CredentialHealth(AccountState.HEALTHY, Map.of("upstream-sol", cleanPause));
            assertThat(SuccessShortcut.changesNothing(clean, success(5, "upstream-sol")))
                    .isTrue();

            CredentialHealth failedThenPaused = StateTransitionTests.apply(
                    PROFILE, CredentialHealth.HEALTHY, failure(0, "upstream-sol", "upstream_status", 429, "slow down"));
            ModelState pausedWithFailures =
                    failedThenPaused.model("upstream-sol").orElseThrow().withStatus(ModelStatus.PAUSED, t(1));
            CredentialHealth withFailures =
                    new CredentialHealth(AccountState.HEALTHY, Map.of("upstream-sol", pausedWithFailures));
            assertThat(SuccessShortcut.changesNothing(withFailures, success(5, "upstream-sol")))
                    .isFalse();
        }

        @Test
        void agreesWithTheTransitionStateServiceApplies() {
            CredentialHealth[] states = {
                CredentialHealth.HEALTHY,
                StateTransitionTests.apply(PROFILE, CredentialHealth.HEALTHY, status(0, "upstream-sol", 429)),
                StateTransitionTests.apply(PROFILE, CredentialHealth.HEALTHY, status(0, "upstream-glm", 429)),
                StateTransitionTests.apply(PROFILE, CredentialHealth.HEALTHY, status(0, null, 500)),
                new CredentialHealth(
                        AccountState.HEALTHY.withStatus(AccountStatus.PAUSED),
                        Map.of("upstream-sol", ModelState.created("upstream-sol", ModelStatus.PAUSED, t(0))))
            };
            String[] keys = {"upstream-sol", "upstream-glm", null};
            for (CredentialHealth stored : states) {
                for (String key : keys) {
                    AttemptSucceeded event = success(20, key);
                    boolean changed =
                            StateTransition.apply(PROFILE, stored, event).changedState(stored);
                    assertThat(SuccessShortcut.changesNothing(stored, event))
                            .as("%s on %s", key, stored)
                            .isEqualTo(!changed);
                }
            }
        }
    }

    @Nested
    class IsReplay {

        @Test
        void aRecordAtOrBeforeTheLastChangeOnItsPartitionIsAReplay() {
            OutcomePosition lastChange = new OutcomePosition(2, 100);

            assertThat(SuccessShortcut.isReplay(lastChange, new OutcomePosition(2, 99)))
                    .isTrue();
            assertThat(SuccessShortcut.isReplay(lastChange, new OutcomePosition(2, 100)))
                    .isTrue();
            assertThat(SuccessShortcut.isReplay(lastChange, new OutcomePosition(2, 101)))
                    .isFalse();
        }

        @Test
        void positionsOnAnotherPartitionAreNotComparable() {
            assertThat(SuccessShortcut.isReplay(new OutcomePosition(2, 100), new OutcomePosition(0, 5)))
                    .isFalse();
        }

        @Test
        void withoutAPositionNothingIsAReplay() {
            assertThat(SuccessShortcut.isReplay(null, new OutcomePosition(0, 5)))
                    .isFalse();
            assertThat(SuccessShortcut.isReplay(new OutcomePosition(0, 5), null))
                    .isFalse();
        }
    }
}
