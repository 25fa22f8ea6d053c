package io.routegateway.core.state;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.routegateway.core.event.CredentialEvent;
import io.routegateway.core.model.CredentialKind;
import io.routegateway.core.model.ModelMapping;
import io.routegateway.core.model.Platform;
import io.routegateway.core.policy.FailurePolicy;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import static org.assertj.core.api.Assertions.assertThat;

/** Invariants over arbitrary sequences of automatic events (everything but manual actions). */
class TransitionInvariantProperties {

    static final List<String> KEYS = List.of("ua", "ub", "uc");
    static final CredentialProfile PROFILE = new CredentialProfile(
            Platform.OPENAI,
            CredentialKind.API,
            List.of(new ModelMapping("a", "ua"), new ModelMapping("b", "ub"), new ModelMapping("c", "uc")),
            new FailurePolicy(2, 200, 2, true, 10, true),
            0);
    static final Instant T0 = Instant.parse("2026-09-02T10:00:00Z");

    @Property(tries = 300)
    void noAutomaticTransitionChangesAPausedModelRowsStatus(@ForAll("automaticEvents") List<CredentialEvent> events) {
        CredentialHealth state = CredentialHealth.HEALTHY.withModel(ModelState.created("ub", ModelStatus.PAUSED, T0));
        for (CredentialEvent event : events) {
            state = StateTransition.apply(PROFILE, state, event).next();
            assertThat(state.models()).containsKey("ub");
            assertThat(state.models().get("ub").status()).isEqualTo(ModelStatus.PAUSED);
        }
    }

    @Property(tries = 300)
    void aRevokedAccountNeverRecoversAutomatically(@ForAll("automaticEvents") List<CredentialEvent> events) {
        CredentialHealth state = new CredentialHealth(AccountState.HEALTHY.withStatus(AccountStatus.REVOKED), Map.of());
        for (CredentialEvent event : events) {
            state = StateTransition.apply(PROFILE, state, event).next();
            assertThat(state.account().status()).isEqualTo(AccountStatus.REVOKED);
        }
    }

    @Property(tries = 300)
    void aPausedAccountComesBackOnlyThroughATestAPersonRan(@ForAll("automaticEvents") List<CredentialEvent> events) {
        CredentialHealth state = new CredentialHealth(AccountState.HEALTHY.withStatus(AccountStatus.PAUSED), Map.of());
        for (CredentialEvent event : events) {
            CredentialHealth before = state;
            state = StateTransition.apply(PROFILE, state, event).next();
            boolean byAPerson = event instanceof CredentialEvent.ModelTestSucceeded test
                    && test.explicitTest()
                    && !test.automatic();
            if (before.account().status() == AccountStatus.PAUSED && !byAPerson) {
                assertThat(state.account().status()).isEqualTo(AccountStatus.PAUSED);
            }
        }
    }

    @Property(tries = 300)
    void aBlacklistedAccountStaysBlacklistedUntilATestAPersonRan(
            @ForAll("automaticEvents") List<CredentialEvent> events) {
        CredentialHealth state = new CredentialHealth(
                new AccountState(
                        AccountStatus.ERROR,
                        5,
                        null,
                        null,
                        AccountState.BLACKLISTED_KIND,
                        "over the threshold",
                        null,
                        0,
                        null),
                Map.of());
        for (CredentialEvent event : events) {
            CredentialHealth before = state;
            state = StateTransition.apply(PROFILE, state, event).next();
            boolean byAPerson = event instanceof CredentialEvent.ModelTestSucceeded test
                    && test.explicitTest()
                    && !test.automatic();
            if (before.account().isBlacklisted() && !byAPerson) {
                assertThat(state.account().isBlacklisted())
                        .as("after %s", event.type())
                        .isTrue();
                assertThat(state.account().lastFailureMessage()).isEqualTo("over the threshold");
            }
        }
    }

    @Property(tries = 300)
    void failuresNeverModifyAPausedOrRevokedAccount(
            @ForAll("automaticEvents") List<CredentialEvent> events, @ForAll("pausedOrRevoked") AccountStatus status) {
        CredentialHealth start = new CredentialHealth(AccountState.HEALTHY.withStatus(status), Map.of())
                .withModel(ModelState.created("ua", ModelStatus.OK, T0));
        for (CredentialEvent event : events) {
            if (event instanceof CredentialEvent.TransientFailureRecorded
                    || event instanceof CredentialEvent.QuotaExhaustionRecorded) {
                assertThat(StateTransition.apply(PROFILE, start, event).next()).isEqualTo(start);
            }
        }
    }

    @Provide
    Arbitrary<AccountStatus> pausedOrRevoked() {
        return Arbitraries.of(AccountStatus.PAUSED, AccountStatus.REVOKED);
    }

    @Property(tries = 300)
    void successNeverTouchesSiblingModelRows(
            @ForAll("automaticEvents") List<CredentialEvent> history, @ForAll("keys") String succeeded) {
        CredentialHealth state = CredentialHealth.HEALTHY;
        for (CredentialEvent event : history) {
            state = StateTransition.apply(PROFILE, state, event).next();
        }
        CredentialEvent success =
                new CredentialEvent.AttemptSucceeded(UUID.randomUUID(), "c", T0.plusSeconds(1000), succeeded);
        CredentialHealth next = StateTransition.apply(PROFILE, state, success).next();
        for (String key : KEYS) {
            if (!key.equals(succeeded)) {
                assertThat(next.models().get(key)).isEqualTo(state.models().get(key));
            }
        }
        assertThat(next.account().hasFailureTraces()).isFalse();
    }

    @Property(tries = 300)
    void countersNeverGoNegativeAndStreaksNeverExceedTheThreshold(
            @ForAll("automaticEvents") List<CredentialEvent> events) {
        CredentialHealth state = CredentialHealth.HEALTHY;
        for (CredentialEvent event : events) {
            state = StateTransition.apply(PROFILE, state, event).next();
            assertThat(state.account().transientFailureCount()).isNotNegative();
            for (ModelState row : state.models().values()) {
                assertThat(row.semanticFailureStreakCount())
                        .isBetween(0, PROFILE.failurePolicy().semanticErrorThreshold());
            }
        }
    }

    @Provide
    Arbitrary<String> keys() {
        return Arbitraries.of(KEYS);
    }

    @Provide
    Arbitrary<List<CredentialEvent>> automaticEvents() {
        Arbitrary<String> key = Arbitraries.of("ua", "ub", "uc").injectNull(0.15);
        Arbitrary<Integer> second = Arbitraries.integers().between(0, 600);
        Arbitrary<Integer> status = Arbitraries.of(401, 403, 408, 429, 500, 503);
        Arbitrary<String> kind = Arbitraries.of(
                "upstream_status", "transport", "semantic_response_transient", "model_test_status", "model_test");
        Arbitrary<CredentialEvent> transientFailure = Combinators.combine(key, second, status, kind)
                .as((k, s, st, kd) -> new CredentialEvent.TransientFailureRecorded(
                        UUID.randomUUID(), "c", T0.plusSeconds(s), k, kd, st, "failed " + st, null));
        Arbitrary<CredentialEvent> success = Combinators.combine(key, second)
                .as((k, s) -> new CredentialEvent.AttemptSucceeded(UUID.randomUUID(), "c", T0.plusSeconds(s), k));
        Arbitrary<CredentialEvent> quota = second.map(s -> CredentialEvent.QuotaExhaustionRecorded.withoutReset(
                UUID.randomUUID(), "c", T0.plusSeconds(s), null, 200, "quota exhausted", null));
        Arbitrary<CredentialEvent> test = Combinators.combine(
                        key, second, Arbitraries.of(true, false), Arbitraries.of(true, false))
                .as((k, s, explicit, automatic) -> new CredentialEvent.ModelTestSucceeded(
                        UUID.randomUUID(), "c", T0.plusSeconds(s), k, explicit, automatic));
        Arbitrary<CredentialEvent> scheduled = second.map(s ->
                new CredentialEvent.ScheduledReactivationTriggered(UUID.randomUUID(), "c", T0.plusSeconds(s), "03:00"));
        return Arbitraries.oneOf(transientFailure, success, quota, test, scheduled)
                .list()
                .ofMaxSize(25);
    }
}
