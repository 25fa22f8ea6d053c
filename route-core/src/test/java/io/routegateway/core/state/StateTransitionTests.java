package io.routegateway.core.state;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import io.routegateway.core.event.CredentialEvent;
import io.routegateway.core.failure.Fingerprint;
import io.routegateway.core.model.CredentialKind;
import io.routegateway.core.model.ModelMapping;
import io.routegateway.core.model.Platform;
import io.routegateway.core.policy.FailurePolicy;
import io.routegateway.core.quota.UsageLimits;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import static io.routegateway.core.state.Events.failure;
import static io.routegateway.core.state.Events.permanent;
import static io.routegateway.core.state.Events.probe;
import static io.routegateway.core.state.Events.quota;
import static io.routegateway.core.state.Events.scheduled;
import static io.routegateway.core.state.Events.status;
import static io.routegateway.core.state.Events.success;
import static io.routegateway.core.state.Events.t;
import static io.routegateway.core.state.Events.test;
import static io.routegateway.core.state.Events.usageLimit;
import static org.assertj.core.api.Assertions.assertThat;

class StateTransitionTests {

    static final FailurePolicy COOLDOWN_ON = new FailurePolicy(2, 200, 10, true, 10, true);
    static final List<ModelMapping> SOL_AND_GLM =
            List.of(new ModelMapping("gpt-5.6-sol", "upstream-sol"), new ModelMapping("glm-5.3", "upstream-glm"));

    static CredentialProfile profile(FailurePolicy policy, List<ModelMapping> mappings) {
        return new CredentialProfile(Platform.OPENAI, CredentialKind.API, mappings, policy, 0);
    }

    static CredentialHealth apply(CredentialProfile profile, CredentialHealth health, CredentialEvent... events) {
        CredentialHealth state = health;
        for (CredentialEvent event : events) {
            state = StateTransition.apply(profile, state, event).next();
        }
        return state;
    }

    @Nested
    class ModelScopedFailure {

        @Test
        void writesOnlyTheModelRowCooldownAndTheAccountCountAndDetails() {
            CredentialHealth next =
                    apply(profile(COOLDOWN_ON, SOL_AND_GLM), CredentialHealth.HEALTHY, status(0, "upstream-sol", 429));

            ModelState row = next.models().get("upstream-sol");
            assertThat(row.transientFailureCount()).isEqualTo(1);
            assertThat(row.cooldownUntil()).isEqualTo(t(10));
            assertThat(row.semanticFailureStreakCount()).isEqualTo(1);
            assertThat(row.semanticFailureStreakFingerprint()).isEqualTo(Fingerprint.of(429, "upstream returned 429"));
            assertThat(row.lastFailureKind()).isEqualTo("upstream_status");
            assertThat(row.createdAt()).isEqualTo(t(0));
            assertThat(next.account().transientFailureCount()).isEqualTo(1);
            assertThat(next.account().lastFailureKind()).isEqualTo("upstream_status");
            assertThat(next.account().cooldownUntil()).isNull();
            assertThat(next.account().nextRetryAt()).isNull();
            assertThat(next.account().status()).isEqualTo(AccountStatus.OK);
        }

        @Test
        void cooldownOffOnlyIncrementsCountersAndWritesNoTimestamp() {
            FailurePolicy off = FailurePolicy.DEFAULTS;
            CredentialHealth next = apply(
                    profile(off, SOL_AND_GLM),
                    CredentialHealth.HEALTHY,
                    status(0, "upstream-sol", 429),
                    status(1, "upstream-glm", 500));

            assertThat(next.models().get("upstream-sol").cooldownUntil()).isNull();
            assertThat(next.models().get("upstream-glm").cooldownUntil()).isNull();
            assertThat(next.account().cooldownUntil()).isNull();
            assertThat(next.account().transientFailureCount()).isEqualTo(2);
        }

        @Test
        void modelRowsAccumulateCooldownAndStreakTogether() {
            CredentialHealth next = apply(
                    profile(COOLDOWN_ON, SOL_AND_GLM),
                    CredentialHealth.HEALTHY,
                    status(0, "upstream-sol", 429),
                    status(11, "upstream-sol", 429),
                    status(22, "upstream-sol", 429));

            ModelState row = next.models().get("upstream-sol");
            assertThat(row.semanticFailureStreakCount()).isEqualTo(3);
            assertThat(row.cooldownUntil()).isEqualTo(t(32));
        }

        @Test
        void aDifferentFingerprintResetsTheStreakToOne() {
            CredentialHealth next = apply(
                    profile(COOLDOWN_ON, SOL_AND_GLM),
                    CredentialHealth.HEALTHY,
                    status(0, "upstream-sol", 429),
                    status(11, "upstream-sol", 429),
                    status(22, "upstream-sol", 503));

            ModelState row = next.models().get("upstream-sol");
            assertThat(row.semanticFailureStreakCount()).isEqualTo(1);
            assertThat(row.semanticFailureStreakFingerprint()).isEqualTo(Fingerprint.of(503, "upstream returned 503"));
        }

        @Test
        void theSameRelayMessageWithAnIdeographicOrNoBreakSpaceContinuesTheStreak() {
            CredentialHealth next = apply(
                    profile(COOLDOWN_ON, SOL_AND_GLM),
                    CredentialHealth.HEALTHY,
                    failure(0, "upstream-sol", "semantic_response_transient", 200, "当前分组 上游负载已饱和"),
                    failure(11, "upstream-sol", "semantic_response_transient", 200, "当前分组\u3000上游负载已饱和"),
                    failure(22, "upstream-sol", "semantic_response_transient", 200, "当前分组\u00a0上游负载已饱和\u3000"));

            assertThat(next.models().get("upstream-sol").semanticFailureStreakCount())
                    .isEqualTo(3);
        }

        @Test
        void reachingTheThresholdFlipsTheModelToErrorAndTheCountIsCapped() {
            FailurePolicy threshold3 = new FailurePolicy(2, 200, 3, false, 10, true);
            CredentialHealth next = CredentialHealth.HEALTHY;
            for (int i = 0; i < 5; i++) {
                next = apply(profile(threshold3, SOL_AND_GLM), next, status(i, "upstream-sol", 429));
            }
            ModelState row = next.models().get("upstream-sol");
            assertThat(row.status()).isEqualTo(ModelStatus.ERROR);
            assertThat(row.semanticFailureStreakCount()).isEqualTo(3);
            assertThat(next.account().status()).isEqualTo(AccountStatus.OK);
        }

        @Test
        void errorStatusDisabledKeepsCountingButNeverFlips() {
            FailurePolicy noFlip = new FailurePolicy(2, 200, 2, false, 10, false);
            CredentialHealth next = apply(
                    profile(noFlip, SOL_AND_GLM),
                    CredentialHealth.HEALTHY,
                    status(0, "upstream-sol", 429),
                    status(1, "upstream-sol", 429),
                    status(2, "upstream-sol", 429));
            ModelState row = next.models().get("upstream-sol");
            assertThat(row.status()).isEqualTo(ModelStatus.OK);
            assertThat(row.semanticFailureStreakCount()).isEqualTo(2);
            assertThat(row.transientFailureCount()).isEqualTo(3);
        }

        @Test
        void aPausedRowIsNeverFlippedToErrorByTheStreak() {
            FailurePolicy threshold1 = new FailurePolicy(2, 200, 1, true, 10, true);
            CredentialHealth paused = apply(
                    profile(threshold1, SOL_AND_GLM),
                    CredentialHealth.HEALTHY,
                    new CredentialEvent.ModelPaused(UUID.randomUUID(), Events.CREDENTIAL, t(0), "upstream-sol"));
            CredentialHealth next = apply(profile(threshold1, SOL_AND_GLM), paused, status(1, "upstream-sol", 429));
            assertThat(next.models().get("upstream-sol").status()).isEqualTo(ModelStatus.PAUSED);
        }
    }

    @Nested
    class PausedAndRevokedAccounts {

        @Test
        void failuresOfAnyScopeNeverModifyAPausedOrRevokedAccount() {
            FailurePolicy threshold2 = new FailurePolicy(2, 200, 2, true, 10, true);
            CredentialProfile profile = profile(threshold2, SOL_AND_GLM);
            for (AccountStatus status : List.of(AccountStatus.PAUSED, AccountStatus.REVOKED)) {
                CredentialHealth start = apply(
                                profile,
                                CredentialHealth.HEALTHY,
                                failure(0, "upstream-glm", "model_test_status", 429, "rate limited"))
                        .withAccount(AccountState.HEALTHY.withStatus(status));
                CredentialHealth next = apply(
                        profile,
                        start,
                        failure(20, "upstream-sol", "model_test_status", 429, "rate limited"),
                        failure(40, "upstream-sol", "model_test_status", 429, "rate limited"),
                        failure(60, "upstream-glm", "model_test_status", 429, "rate limited"),
                        failure(80, "upstream-sol", "model_test", null, "connect timed out"),
                        failure(90, null, "model_test_status", 503, "unavailable"));
                assertThat(next).as("%s", status).isEqualTo(start);
            }
        }
    }

    @Nested
    class AccountScopedFailure {

        @Test
        void writesBothAccountTimestampsTogether() {
            CredentialHealth next =
                    apply(profile(COOLDOWN_ON, SOL_AND_GLM), CredentialHealth.HEALTHY, status(0, "upstream-sol", 401));
            assertThat(next.account().cooldownUntil()).isEqualTo(t(10));
            assertThat(next.account().nextRetryAt()).isEqualTo(t(10));
            assertThat(next.models()).isEmpty();
        }

        @Test
        void each401And403TransportRefreshRequestBuildAndModelTestAreAccountScoped() {
            for (CredentialEvent event : List.of(
                    status(0, "upstream-sol", 401),
                    status(0, "upstream-sol", 403),
                    failure(0, "upstream-sol", "transport", null, "connect timed out after 20s"),
                    failure(0, "upstream-sol", "refresh", 500, "refresh failed"),
                    failure(0, "upstream-sol", "request_build", null, "bad auth"),
                    failure(0, "upstream-sol", "model_test", null, "read timed out"),
                    failure(0, "upstream-sol", "model_test_status", 403, "forbidden"),
                    failure(0, "upstream-sol", "some_future_kind", 500, "?"))) {
                CredentialHealth next = apply(profile(COOLDOWN_ON, SOL_AND_GLM), CredentialHealth.HEALTHY, event);
                assertThat(next.models()).as(event.toString()).isEmpty();
                assertThat(next.account().cooldownUntil()).as(event.toString()).isEqualTo(t(10));
            }
        }

        @Test
        void otherStatusesAndSemanticAndTransformFailuresAreModelScoped() {
            for (CredentialEvent event : List.of(
                    status(0, "upstream-sol", 429),
                    status(0, "upstream-sol", 500),
                    status(0, "upstream-sol", 408),
                    failure(0, "upstream-sol", "model_test_status", 429, "limited"),
                    failure(
                            0,
                            "upstream-sol",
                            "semantic_response_transient",
                            200,
                            "stream_disconnected_before_completion"),
                    failure(0, "upstream-sol", "response_transform", 200, "bad frame"))) {
                CredentialHealth next = apply(profile(COOLDOWN_ON, SOL_AND_GLM), CredentialHealth.HEALTHY, event);
                assertThat(next.models()).as(event.toString()).containsKey("upstream-sol");
                assertThat(next.account().cooldownUntil()).as(event.toString()).isNull();
            }
        }

        @Test
        void aFailureWithoutModelNameDegradesToAccountScope() {
            CredentialHealth next =
                    apply(profile(COOLDOWN_ON, SOL_AND_GLM), CredentialHealth.HEALTHY, status(0, null, 429));
            assertThat(next.models()).isEmpty();
            assertThat(next.account().cooldownUntil()).isEqualTo(t(10));
        }

        @Test
        void anAccountScopedTransientFailureClearsTheAccountStreak() {
            FailurePolicy noFlip = new FailurePolicy(2, 200, 10, true, 10, false);
            CredentialHealth streaking =
                    apply(profile(noFlip, SOL_AND_GLM), CredentialHealth.HEALTHY, quota(0, "quota exhausted"));
            assertThat(streaking.account().semanticFailureStreakCount()).isEqualTo(1);

            CredentialHealth next = apply(profile(noFlip, SOL_AND_GLM), streaking, status(1, null, 503));
            assertThat(next.account().semanticFailureStreakCount()).isZero();
            assertThat(next.account().semanticFailureStreakFingerprint()).isNull();
        }

        @Test
        void theCooldownWindowIsFixedAndDoesNotLadder() {
            CredentialHealth next = apply(
                    profile(COOLDOWN_ON, SOL_AND_GLM),
                    CredentialHealth.HEALTHY,
                    status(0, null, 500),
                    status(11, null, 500),
                    status(22, null, 500));
            assertThat(next.account().cooldownUntil()).isEqualTo(t(32));
        }
    }

    @Nested
    class Escalation {

        @Test
        void anAccountWhoseEveryServiceableModelIsPausedNeverEscalates() {
            CredentialProfile profile = profile(COOLDOWN_ON, SOL_AND_GLM);
            CredentialHealth paused = apply(
                    profile,
                    CredentialHealth.HEALTHY,
                    new CredentialEvent.ModelPaused(UUID.randomUUID(), Events.CREDENTIAL, t(0), "upstream-sol"),
                    new CredentialEvent.ModelPaused(UUID.randomUUID(), Events.CREDENTIAL, t(0), "upstream-glm"));
            // the denominator minus the paused models is empty: nothing established an outage of the account
            CredentialHealth next = apply(profile, paused, status(1, "stray-model", 500));
            assertThat(next.account().cooldownUntil()).isNull();
            assertThat(next.account().nextRetryAt()).isNull();
            assertThat(next.models().get("stray-model").cooldownUntil()).isEqualTo(t(11));
        }

        @Test
        void upstreamDownWholesaleEscalatesOnTheLastServiceableModel() {
            CredentialProfile profile = profile(COOLDOWN_ON, SOL_AND_GLM);
            CredentialHealth first = apply(profile, CredentialHealth.HEALTHY, status(0, "upstream-sol", 500));
            assertThat(first.account().cooldownUntil()).isNull();

            CredentialHealth second = apply(profile, first, status(1, "upstream-glm", 500));
            assertThat(second.account().cooldownUntil()).isEqualTo(t(11));
            assertThat(second.account().nextRetryAt()).isEqualTo(t(11));
        }

        @Test
        void theDenominatorExcludesPausedModels() {
            List<ModelMapping> four = List.of(
                    new ModelMapping("a", "ua"),
                    new ModelMapping("b", "ub"),
                    new ModelMapping("c", "uc"),
                    new ModelMapping("d", "ud"));
            CredentialProfile profile = profile(COOLDOWN_ON, four);
            CredentialHealth paused = CredentialHealth.HEALTHY;
            for (String key : List.of("ua", "ub", "uc")) {
                paused = apply(
                        profile,
                        paused,
                        new CredentialEvent.ModelPaused(UUID.randomUUID(), Events.CREDENTIAL, t(0), key));
            }
            // the fourth model's single failure is an account-wide outage only if it is the last one
            CredentialHealth next = apply(profile, paused, status(1, "ud", 429));
            assertThat(next.account().cooldownUntil()).isEqualTo(t(11));

            CredentialHealth twoPaused = CredentialHealth.HEALTHY;
            for (String key : List.of("ua", "ub")) {
                twoPaused = apply(
                        profile,
                        twoPaused,
                        new CredentialEvent.ModelPaused(UUID.randomUUID(), Events.CREDENTIAL, t(0), key));
            }
            CredentialHealth notYet = apply(profile, twoPaused, status(1, "ud", 429));
            assertThat(notYet.account().cooldownUntil()).isNull();
        }

        @Test
        void aSingleModelAccountBehavesAsBeforeAndEscalatesOnItsOnlyModel() {
            CredentialProfile profile = profile(COOLDOWN_ON, List.of(new ModelMapping("gpt-5.6-sol", "upstream-sol")));
            CredentialHealth next = apply(profile, CredentialHealth.HEALTHY, status(0, "upstream-sol", 429));
            assertThat(next.account().cooldownUntil()).isEqualTo(t(10));
        }

        @Test
        void officialAccountsUseThePlatformBaselineAsDenominator() {
            CredentialProfile claude =
                    new CredentialProfile(Platform.CLAUDE, CredentialKind.OFFICIAL, List.of(), COOLDOWN_ON, 0);
            List<String> baseline = Platform.CLAUDE.baselineModels();
            assertThat(baseline).hasSize(4);
            CredentialHealth state = CredentialHealth.HEALTHY;
            for (int i = 0; i < 3; i++) {
                state = apply(claude, state, status(i, baseline.get(i), 500));
                assertThat(state.account().cooldownUntil())
                        .as("after %d models", i + 1)
                        .isNull();
            }
            state = apply(claude, state, status(3, baseline.get(3), 500));
            assertThat(state.account().cooldownUntil()).isEqualTo(t(13));
        }

        @Test
        void officialCodexEscalatesAfterItsFourBaselineModelsAndGeminiAndGrokAfterTheirOne() {
            CredentialProfile codex =
                    new CredentialProfile(Platform.CODEX, CredentialKind.OFFICIAL, List.of(), COOLDOWN_ON, 0);
            CredentialHealth state = CredentialHealth.HEALTHY;
            List<String> baseline = Platform.CODEX.baselineModels();
            for (int i = 0; i < 3; i++) {
                state = apply(codex, state, status(i, baseline.get(i), 500));
                assertThat(state.account().cooldownUntil())
                        .as("codex after %d models", i + 1)
                        .isNull();
            }
            state = apply(codex, state, status(3, baseline.get(3), 500));
            assertThat(state.account().cooldownUntil()).isEqualTo(t(13));
            // mappings on an official account are not its denominator: the baseline is
            CredentialProfile codexWithMappings =
                    new CredentialProfile(Platform.CODEX, CredentialKind.OFFICIAL, SOL_AND_GLM, COOLDOWN_ON, 0);
            CredentialHealth two = apply(
                    codexWithMappings,
                    CredentialHealth.HEALTHY,
                    status(0, "upstream-sol", 500),
                    status(1, "upstream-glm", 500));
            assertThat(two.account().cooldownUntil()).isNull();

            for (Platform single : List.of(Platform.GEMINI, Platform.GROK)) {
                CredentialProfile one =
                        new CredentialProfile(single, CredentialKind.OFFICIAL, List.of(), COOLDOWN_ON, 0);
                CredentialHealth next = apply(
                        one,
                        CredentialHealth.HEALTHY,
                        status(0, single.baselineModels().get(0), 500));
                assertThat(next.account().cooldownUntil()).as(single.wire()).isEqualTo(t(10));
            }
        }

        @Test
        void baselineSizesAreFourCodexFourClaudeOneGeminiOneGrok() {
            assertThat(Platform.CODEX.baselineModels()).hasSize(4);
            assertThat(Platform.CLAUDE.baselineModels()).hasSize(4);
            assertThat(Platform.GEMINI.baselineModels()).hasSize(1);
            assertThat(Platform.GROK.baselineModels()).hasSize(1);
        }

        @Test
        void anExpiredSiblingCooldownDoesNotCountAsUnavailable() {
            CredentialProfile profile = profile(COOLDOWN_ON, SOL_AND_GLM);
            CredentialHealth first = apply(profile, CredentialHealth.HEALTHY, status(0, "upstream-sol", 500));
            CredentialHealth second = apply(profile, first, status(15, "upstream-glm", 500));
            assertThat(second.account().cooldownUntil()).isNull();
        }

        @Test
        void aRowOfARemovedMappingDoesNotBlockEscalation() {
            // upstream-old failed while it was still mapped; its cooldown passed and no request can clear it now
            CredentialHealth stale = apply(
                    profile(COOLDOWN_ON, List.of(new ModelMapping("old", "upstream-old"))),
                    CredentialHealth.HEALTHY,
                    status(0, "upstream-old", 500));
            CredentialProfile remapped = profile(COOLDOWN_ON, SOL_AND_GLM);

            CredentialHealth next =
                    apply(remapped, stale, status(100, "upstream-sol", 500), status(101, "upstream-glm", 500));

            assertThat(next.models()).containsKey("upstream-old");
            assertThat(next.account().cooldownUntil()).isEqualTo(t(111));
        }

        @Test
        void aStrayModelNameOnAnOfficialAccountDoesNotBlockEscalation() {
            CredentialProfile claude =
                    new CredentialProfile(Platform.CLAUDE, CredentialKind.OFFICIAL, List.of(), COOLDOWN_ON, 0);
            CredentialHealth state = apply(claude, CredentialHealth.HEALTHY, status(0, "claude-typo-4", 500));
            List<String> baseline = Platform.CLAUDE.baselineModels();
            for (int i = 0; i < baseline.size(); i++) {
                state = apply(claude, state, status(100 + i, baseline.get(i), 500));
            }
            assertThat(state.account().cooldownUntil()).isEqualTo(t(113));
        }

        @Test
        void aPassThroughCatchAllAccountKeepsModelFailuresPerModel() {
            CredentialProfile catchAll = profile(COOLDOWN_ON, List.of(new ModelMapping("*", "*")));
            CredentialHealth one = apply(catchAll, CredentialHealth.HEALTHY, status(0, "gpt-5.6-sol", 429));
            assertThat(one.models().get("gpt-5.6-sol").cooldownUntil()).isEqualTo(t(10));
            assertThat(one.account().cooldownUntil()).isNull();

            CredentialHealth two = apply(catchAll, one, status(1, "glm-5.3", 429));
            assertThat(two.account().cooldownUntil()).isNull();
        }

        @Test
        void aCatchAllBesideExplicitMappingsStillServesUnnamedModelsSoNothingEscalates() {
            CredentialProfile mixed = profile(
                    COOLDOWN_ON, List.of(new ModelMapping("gpt-5.6-sol", "upstream-sol"), new ModelMapping("*", "")));
            CredentialHealth next = apply(mixed, CredentialHealth.HEALTHY, status(0, "upstream-sol", 429));
            assertThat(next.account().cooldownUntil()).isNull();
        }

        @Test
        void aMappingLessOpenAiAccountKeepsModelFailuresPerModel() {
            CredentialProfile mappingLess = profile(COOLDOWN_ON, List.of());
            CredentialHealth next = apply(mappingLess, CredentialHealth.HEALTHY, status(0, "gpt-5.6-sol", 429));
            assertThat(next.models().get("gpt-5.6-sol").cooldownUntil()).isEqualTo(t(10));
            assertThat(next.account().cooldownUntil()).isNull();
        }

        @Test
        void aFixedCatchAllTargetIsTheFunnelAndCountsInTheDenominator() {
            CredentialProfile funnel = profile(COOLDOWN_ON, List.of(new ModelMapping("*", "upstream-all")));
            CredentialHealth next = apply(funnel, CredentialHealth.HEALTHY, status(0, "upstream-all", 429));
            assertThat(next.account().cooldownUntil()).isEqualTo(t(10));
        }

        @Test
        void noEscalationWhenCooldownIsOff() {
            CredentialProfile profile = profile(FailurePolicy.DEFAULTS, SOL_AND_GLM);
            CredentialHealth next = apply(
                    profile, CredentialHealth.HEALTHY, status(0, "upstream-sol", 500), status(1, "upstream-glm", 500));
            assertThat(next.account().cooldownUntil()).isNull();
        }
    }

    @Nested
    class QuotaChannel {

        @Test
        void oneOccurrenceFlipsTheAccountToErrorAndClearsCountAndTimestamps() {
            CredentialProfile profile = profile(COOLDOWN_ON, SOL_AND_GLM);
            CredentialHealth cooling = apply(profile, CredentialHealth.HEALTHY, status(0, null, 503));
            assertThat(cooling.account().cooldownUntil()).isNotNull();

            CredentialHealth next = apply(profile, cooling, quota(1, "Budget pool quota has been exhausted."));
            assertThat(next.account().status()).isEqualTo(AccountStatus.ERROR);
            assertThat(next.account().transientFailureCount()).isZero();
            assertThat(next.account().cooldownUntil()).isNull();
            assertThat(next.account().nextRetryAt()).isNull();
            assertThat(next.account().lastFailureKind()).isEqualTo("semantic_response_failed");
            assertThat(next.account().lastFailureMessage()).isEqualTo("Budget pool quota has been exhausted.");
            assertThat(next.account().semanticFailureStreakCount()).isEqualTo(1);
        }

        @Test
        void ignoresTheSemanticThresholdField() {
            FailurePolicy threshold1000 = new FailurePolicy(2, 200, 1000, false, 10, true);
            CredentialHealth next =
                    apply(profile(threshold1000, SOL_AND_GLM), CredentialHealth.HEALTHY, quota(0, "quota exhausted"));
            assertThat(next.account().status()).isEqualTo(AccountStatus.ERROR);
        }

        @Test
        void revokedAndPausedAccountsAreNeverModified() {
            for (AccountStatus status : List.of(AccountStatus.REVOKED, AccountStatus.PAUSED)) {
                CredentialHealth start =
                        new CredentialHealth(AccountState.HEALTHY.withStatus(status), java.util.Map.of());
                CredentialHealth next = apply(profile(COOLDOWN_ON, SOL_AND_GLM), start, quota(0, "quota exhausted"));
                assertThat(next).isEqualTo(start);
            }
        }

        @Test
        void errorStatusDisabledRecordsTheStreakWithoutFlipping() {
            FailurePolicy noFlip = new FailurePolicy(2, 200, 10, false, 10, false);
            CredentialHealth next =
                    apply(profile(noFlip, SOL_AND_GLM), CredentialHealth.HEALTHY, quota(0, "quota exhausted"));
            assertThat(next.account().status()).isEqualTo(AccountStatus.OK);
            assertThat(next.account().semanticFailureStreakCount()).isEqualTo(1);
        }
    }

    @Nested
    class UsageLimitReset {

        static final CredentialProfile OFFICIAL_CLAUDE =
                new CredentialProfile(Platform.CLAUDE, CredentialKind.OFFICIAL, List.of(), FailurePolicy.DEFAULTS, 0);

        @Test
        void coolsTheAccountUntilTheReportedResetInsteadOfFlippingIt() {
            Instant reset = t(0).plus(Duration.ofHours(3));
            Transition transition =
                    StateTransition.apply(OFFICIAL_CLAUDE, CredentialHealth.HEALTHY, usageLimit(0, reset, "5h"));
            AccountState account = transition.next().account();

            assertThat(account.status()).isEqualTo(AccountStatus.OK);
            assertThat(account.cooldownUntil()).isEqualTo(reset);
            assertThat(account.nextRetryAt()).isEqualTo(reset);
            assertThat(account.isCoolingAt(reset.minusSeconds(1))).isTrue();
            assertThat(account.isCoolingAt(reset)).isFalse();
            assertThat(account.transientFailureCount()).isZero();
            assertThat(account.lastFailureKind()).isEqualTo("semantic_response_failed");
            assertThat(account.lastFailureMessage()).contains("5-hour window resets at");
            assertThat(transition.next().models()).isEmpty();
            assertThat(transition.changes()).singleElement().satisfies(change -> {
                assertThat(change.to()).isEqualTo("cooling");
                assertThat(change.until()).isEqualTo(reset);
            });
        }

        @Test
        void theResetWinsOverTheConfiguredWindowAndOverACooldownTurnedOff() {
            Instant reset = t(0).plus(Duration.ofHours(2));
            // cooldown on with 10 s: the upstream's reset, not 10 s
            CredentialHealth on =
                    apply(profile(COOLDOWN_ON, SOL_AND_GLM), CredentialHealth.HEALTHY, usageLimit(0, reset, "5h"));
            assertThat(on.account().cooldownUntil()).isEqualTo(reset);
            // cooldown off (the default): still the reset
            CredentialHealth off = apply(
                    profile(FailurePolicy.DEFAULTS, SOL_AND_GLM), CredentialHealth.HEALTHY, usageLimit(0, reset, "5h"));
            assertThat(off.account().cooldownUntil()).isEqualTo(reset);
        }

        @Test
        void aResetBeyondTheBoundIsCutToIt() {
            Instant far = t(0).plus(Duration.ofDays(400));
            CredentialHealth next = apply(OFFICIAL_CLAUDE, CredentialHealth.HEALTHY, usageLimit(0, far, "7d"));
            assertThat(next.account().cooldownUntil()).isEqualTo(t(0).plus(UsageLimits.MAX_COOLDOWN));
        }

        @Test
        void aResetNotAfterTheEventWritesNoCooldownAndDoesNotFlip() {
            for (Instant past : List.of(t(0), t(-60))) {
                CredentialHealth next = apply(OFFICIAL_CLAUDE, CredentialHealth.HEALTHY, usageLimit(0, past, "5h"));
                assertThat(next.account().status()).isEqualTo(AccountStatus.OK);
                assertThat(next.account().cooldownUntil()).isNull();
                assertThat(next.account().nextRetryAt()).isNull();
                assertThat(next.account().lastFailureKind()).isEqualTo("semantic_response_failed");
            }
        }

        @Test
        void revokedAndPausedAccountsAreNeverModified() {
            for (AccountStatus status : List.of(AccountStatus.REVOKED, AccountStatus.PAUSED)) {
                CredentialHealth start =
                        new CredentialHealth(AccountState.HEALTHY.withStatus(status), java.util.Map.of());
                CredentialHealth next = apply(OFFICIAL_CLAUDE, start, usageLimit(0, t(3600), "5h"));
                assertThat(next).isEqualTo(start);
            }
        }

        @Test
        void aSuccessAfterTheResetClearsTheCooldown() {
            Instant reset = t(3600);
            CredentialHealth next = apply(
                    OFFICIAL_CLAUDE,
                    CredentialHealth.HEALTHY,
                    usageLimit(0, reset, "5h"),
                    success(3601, "claude-opus-4-5"));
            assertThat(next.account()).isEqualTo(AccountState.HEALTHY);
        }

        @Test
        void theSameEventGivesTheSameStateWhereverItIsApplied() {
            CredentialEvent event = usageLimit(0, t(7200), "5h");
            assertThat(StateTransition.apply(OFFICIAL_CLAUDE, CredentialHealth.HEALTHY, event))
                    .isEqualTo(StateTransition.apply(OFFICIAL_CLAUDE, CredentialHealth.HEALTHY, event));
        }
    }

    @Nested
    class PermanentFailure {

        @Test
        void writesRevokedWithNoBackoffWindow() {
            CredentialHealth next =
                    apply(profile(COOLDOWN_ON, SOL_AND_GLM), CredentialHealth.HEALTHY, permanent(0, "invalid_grant"));
            assertThat(next.account().status()).isEqualTo(AccountStatus.REVOKED);
            assertThat(next.account().cooldownUntil()).isNull();
            assertThat(next.account().nextRetryAt()).isNull();
            assertThat(next.account().lastFailureMessage()).isEqualTo("invalid_grant");
        }
    }

    @Nested
    class SuccessClearing {

        @Test
        void zeroesEveryAccountTraceAndDeletesOnlyThatModelsRow() {
            CredentialProfile profile = profile(COOLDOWN_ON, SOL_AND_GLM);
            CredentialHealth failing = apply(
                    profile, CredentialHealth.HEALTHY, status(0, "upstream-sol", 429), status(1, "upstream-glm", 429));
            CredentialHealth next = apply(profile, failing, success(12, "upstream-glm"));

            assertThat(next.account()).isEqualTo(AccountState.HEALTHY);
            assertThat(next.models()).containsOnlyKeys("upstream-sol");
            assertThat(next.models().get("upstream-sol"))
                    .isEqualTo(failing.models().get("upstream-sol"));
        }

        @Test
        void aPausedRowKeepsItsPauseWithFailuresReset() {
            CredentialProfile profile = profile(COOLDOWN_ON, SOL_AND_GLM);
            CredentialHealth state = apply(
                    profile,
                    CredentialHealth.HEALTHY,
                    status(0, "upstream-sol", 429),
                    new CredentialEvent.ModelPaused(UUID.randomUUID(), Events.CREDENTIAL, t(1), "upstream-sol"),
                    success(2, "upstream-sol"));
            ModelState row = state.models().get("upstream-sol");
            assertThat(row.status()).isEqualTo(ModelStatus.PAUSED);
            assertThat(row.transientFailureCount()).isZero();
            assertThat(row.cooldownUntil()).isNull();
            assertThat(row.semanticFailureStreakCount()).isZero();
            assertThat(row.lastFailureKind()).isNull();
        }

        @Test
        void doesNotChangeTheAccountStatus() {
            CredentialHealth error =
                    new CredentialHealth(AccountState.HEALTHY.withStatus(AccountStatus.ERROR), java.util.Map.of());
            assertThat(apply(profile(COOLDOWN_ON, SOL_AND_GLM), error, success(0, "upstream-sol"))
                            .account()
                            .status())
                    .isEqualTo(AccountStatus.ERROR);
        }
    }

    @Nested
    class ModelTests {

        @Test
        void aPassingTestPullsErrorAndWarningBackToOk() {
            for (AccountStatus status : List.of(AccountStatus.ERROR, AccountStatus.WARNING)) {
                CredentialHealth start =
                        new CredentialHealth(AccountState.HEALTHY.withStatus(status), java.util.Map.of());
                assertThat(apply(profile(COOLDOWN_ON, SOL_AND_GLM), start, test(0, "upstream-sol", false))
                                .account()
                                .status())
                        .isEqualTo(AccountStatus.OK);
            }
        }

        /** A paused account with failure traces and two model rows, the state a user tests to see if it came back. */
        CredentialHealth pausedWithTracesAndModelRows(CredentialProfile profile) {
            CredentialHealth failing = apply(
                    profile,
                    CredentialHealth.HEALTHY,
                    status(0, "upstream-sol", 429),
                    status(1, "upstream-glm", 429),
                    status(2, null, 503));
            CredentialHealth paused = failing.withAccount(failing.account().withStatus(AccountStatus.PAUSED));
            assertThat(paused.account().hasFailureTraces()).isTrue();
            assertThat(paused.models()).containsOnlyKeys("upstream-sol", "upstream-glm");
            return paused;
        }

        @Test
        void explicitTestRecoveryLeavesSiblingModelRowsAlone() {
            CredentialProfile profile = profile(COOLDOWN_ON, SOL_AND_GLM);
            CredentialHealth paused = pausedWithTracesAndModelRows(profile);

            CredentialHealth next = apply(profile, paused, test(3, "upstream-glm", true));

            assertThat(next.account()).isEqualTo(AccountState.HEALTHY);
            assertThat(next.models()).containsOnlyKeys("upstream-sol");
            assertThat(next.models().get("upstream-sol"))
                    .isEqualTo(paused.models().get("upstream-sol"));
        }

        @Test
        void anExplicitTestRecoversAPausedAccountFullyWhereAPlainPassDoesNot() {
            CredentialProfile profile = profile(COOLDOWN_ON, SOL_AND_GLM);
            CredentialHealth paused = pausedWithTracesAndModelRows(profile);

            CredentialHealth explicit = apply(profile, paused, test(3, "upstream-glm", true));
            CredentialHealth plain = apply(profile, paused, test(3, "upstream-glm", false));

            assertThat(explicit.account().status()).isEqualTo(AccountStatus.OK);
            assertThat(explicit.account().hasFailureTraces()).isFalse();
            assertThat(plain.account().status())
                    .as("only an explicit test against the single account lifts the account's pause")
                    .isEqualTo(AccountStatus.PAUSED);
            assertThat(plain.models()).isEqualTo(explicit.models());
        }

        @Test
        void anExplicitTestRecoversEveryNonRevokedStatusToOk() {
            for (AccountStatus status : List.of(AccountStatus.ERROR, AccountStatus.WARNING, AccountStatus.PAUSED)) {
                CredentialHealth start = apply(
                        profile(COOLDOWN_ON, SOL_AND_GLM),
                        new CredentialHealth(AccountState.HEALTHY.withStatus(status), java.util.Map.of()),
                        new CredentialEvent.ModelPaused(UUID.randomUUID(), Events.CREDENTIAL, t(0), "upstream-sol"));
                CredentialHealth next = apply(profile(COOLDOWN_ON, SOL_AND_GLM), start, test(1, "upstream-glm", true));
                assertThat(next.account()).as("%s", status).isEqualTo(AccountState.HEALTHY);
                assertThat(next.models().get("upstream-sol").status())
                        .as("a model pause is the user's and survives the account's recovery")
                        .isEqualTo(ModelStatus.PAUSED);
            }
        }

        @Test
        void aHealthcheckProbesPassNeverLiftsAnAccountPause() {
            // issue 34: the probe may have been decided before the person paused the account
            CredentialProfile profile = profile(COOLDOWN_ON, SOL_AND_GLM);
            CredentialHealth paused = pausedWithTracesAndModelRows(profile);

            CredentialHealth next = apply(profile, paused, probe(3, "upstream-glm"));

            assertThat(next.account().status()).isEqualTo(AccountStatus.PAUSED);
            assertThat(next.account().hasFailureTraces())
                    .as("the pass still clears the traces like any success")
                    .isFalse();
            assertThat(next.models()).containsOnlyKeys("upstream-sol");
        }

        @Test
        void aHealthcheckProbesPassRecoversAnErrorButNotABlacklist() {
            CredentialProfile thresholdOne =
                    new CredentialProfile(Platform.OPENAI, CredentialKind.API, SOL_AND_GLM, FailurePolicy.DEFAULTS, 1);
            CredentialHealth quotaError = apply(thresholdOne, CredentialHealth.HEALTHY, quota(0, "insufficient_quota"));
            CredentialHealth blacklisted =
                    apply(thresholdOne, CredentialHealth.HEALTHY, status(0, null, 500), status(1, null, 500));
            assertThat(blacklisted.account().isBlacklisted()).isTrue();

            assertThat(apply(thresholdOne, quotaError, probe(2, "upstream-sol")).account())
                    .isEqualTo(AccountState.HEALTHY);
            AccountState stillBlacklisted =
                    apply(thresholdOne, blacklisted, probe(2, "upstream-sol")).account();
            assertThat(stillBlacklisted.isBlacklisted()).isTrue();
            assertThat(stillBlacklisted.lastFailureMessage())
                    .isEqualTo(blacklisted.account().lastFailureMessage());
        }

        @Test
        void aPlainTestNeverLiftsAPauseAndNoTestLiftsARevocation() {
            CredentialHealth paused =
                    new CredentialHealth(AccountState.HEALTHY.withStatus(AccountStatus.PAUSED), java.util.Map.of());
            assertThat(apply(profile(COOLDOWN_ON, SOL_AND_GLM), paused, test(0, "upstream-sol", false))
                            .account()
                            .status())
                    .isEqualTo(AccountStatus.PAUSED);
            CredentialHealth revoked =
                    new CredentialHealth(AccountState.HEALTHY.withStatus(AccountStatus.REVOKED), java.util.Map.of());
            for (boolean explicit : List.of(true, false)) {
                assertThat(apply(profile(COOLDOWN_ON, SOL_AND_GLM), revoked, test(0, "upstream-sol", explicit))
                                .account()
                                .status())
                        .isEqualTo(AccountStatus.REVOKED);
            }
        }
    }

    @Nested
    class ScheduledReactivation {

        @Test
        void clearsEverythingAndDeletesNonPausedRows() {
            CredentialProfile profile = profile(COOLDOWN_ON, SOL_AND_GLM);
            CredentialHealth broken = apply(
                    profile,
                    CredentialHealth.HEALTHY,
                    new CredentialEvent.ModelPaused(UUID.randomUUID(), Events.CREDENTIAL, t(0), "upstream-glm"),
                    status(1, "upstream-sol", 429),
                    quota(2, "quota exhausted"));
            CredentialHealth next = apply(profile, broken, scheduled(100));
            assertThat(next.account()).isEqualTo(AccountState.HEALTHY);
            assertThat(next.models()).containsOnlyKeys("upstream-glm");
            assertThat(next.models().get("upstream-glm").status()).isEqualTo(ModelStatus.PAUSED);
        }

        @Test
        void neverTouchesARevokedAccount() {
            CredentialHealth start = apply(
                    profile(COOLDOWN_ON, SOL_AND_GLM),
                    CredentialHealth.HEALTHY,
                    status(0, "upstream-sol", 429),
                    permanent(1, "invalid_grant"));
            assertThat(apply(profile(COOLDOWN_ON, SOL_AND_GLM), start, scheduled(2)))
                    .isEqualTo(start);
        }

        @Test
        void neverTouchesAPausedAccount() {
            // issue 34: a scheduled job does not overrule the user's pause, not even a reactivation
            // decided before the pause that arrives after it
            CredentialProfile profile = profile(COOLDOWN_ON, SOL_AND_GLM);
            CredentialHealth broken = apply(
                    profile,
                    CredentialHealth.HEALTHY,
                    new CredentialEvent.ModelPaused(UUID.randomUUID(), Events.CREDENTIAL, t(0), "upstream-glm"),
                    status(1, "upstream-sol", 429),
                    status(2, null, 503));
            CredentialHealth paused = apply(
                    profile, broken, new CredentialEvent.CredentialPaused(UUID.randomUUID(), Events.CREDENTIAL, t(3)));

            assertThat(apply(profile, paused, scheduled(100))).isEqualTo(paused);
        }

        @Test
        void keepsAPausedModelRowWhenItReactivatesTheAccount() {
            CredentialProfile profile = profile(COOLDOWN_ON, SOL_AND_GLM);
            CredentialHealth broken = apply(
                    profile,
                    CredentialHealth.HEALTHY,
                    new CredentialEvent.ModelPaused(UUID.randomUUID(), Events.CREDENTIAL, t(0), "upstream-glm"),
                    status(1, "upstream-sol", 429),
                    status(2, null, 503));

            CredentialHealth next = apply(profile, broken, scheduled(100));

            assertThat(next.account()).isEqualTo(AccountState.HEALTHY);
            assertThat(next.models()).containsOnlyKeys("upstream-glm");
            assertThat(next.models().get("upstream-glm").status())
                    .as("automation never lifts a model pause")
                    .isEqualTo(ModelStatus.PAUSED);
        }
    }

    @Nested
    class ManualActions {

        CredentialProfile profile = profile(COOLDOWN_ON, SOL_AND_GLM);

        @Test
        void pauseCreatesARowForAHealthyModelAndResumeRemovesIt() {
            CredentialHealth paused = apply(
                    profile,
                    CredentialHealth.HEALTHY,
                    new CredentialEvent.ModelPaused(UUID.randomUUID(), Events.CREDENTIAL, t(0), "upstream-glm"));
            assertThat(paused.models().get("upstream-glm").status()).isEqualTo(ModelStatus.PAUSED);

            CredentialHealth resumed = apply(
                    profile,
                    paused,
                    new CredentialEvent.ModelResumed(UUID.randomUUID(), Events.CREDENTIAL, t(1), "upstream-glm"));
            assertThat(resumed.models()).isEmpty();
        }

        @Test
        void resumeLiftsOnlyAPauseAndLeavesAnErrorRowInError() {
            CredentialProfile flipsAtOnce = profile(new FailurePolicy(2, 200, 1, true, 10, true), SOL_AND_GLM);
            CredentialHealth error = apply(flipsAtOnce, CredentialHealth.HEALTHY, status(0, "upstream-sol", 429));
            assertThat(error.models().get("upstream-sol").status()).isEqualTo(ModelStatus.ERROR);

            CredentialHealth resumed = apply(
                    flipsAtOnce,
                    error,
                    new CredentialEvent.ModelResumed(UUID.randomUUID(), Events.CREDENTIAL, t(1), "upstream-sol"));
            assertThat(resumed).isEqualTo(error);
        }

        @Test
        void clearDropsCooldownAndErrorButKeepsAPause() {
            CredentialHealth failing = apply(profile, CredentialHealth.HEALTHY, status(0, "upstream-sol", 429));
            CredentialHealth cleared = apply(
                    profile,
                    failing,
                    new CredentialEvent.ModelCleared(UUID.randomUUID(), Events.CREDENTIAL, t(1), "upstream-sol"));
            assertThat(cleared.models()).isEmpty();
        }

        @Test
        void clearAllSkipsPausedAndHealthyModels() {
            CredentialHealth state = apply(
                    profile,
                    CredentialHealth.HEALTHY,
                    status(0, "upstream-sol", 429),
                    status(0, "upstream-glm", 429),
                    new CredentialEvent.ModelPaused(UUID.randomUUID(), Events.CREDENTIAL, t(1), "upstream-glm"));
            CredentialHealth cleared = apply(
                    profile, state, new CredentialEvent.AllModelsCleared(UUID.randomUUID(), Events.CREDENTIAL, t(2)));
            assertThat(cleared.models()).containsOnlyKeys("upstream-glm");
            assertThat(cleared.models().get("upstream-glm"))
                    .isEqualTo(state.models().get("upstream-glm"));
        }

        @Test
        void pauseResumeAndRestoreTheAccount() {
            CredentialHealth paused = apply(
                    profile,
                    CredentialHealth.HEALTHY,
                    new CredentialEvent.CredentialPaused(UUID.randomUUID(), Events.CREDENTIAL, t(0)));
            assertThat(paused.account().status()).isEqualTo(AccountStatus.PAUSED);
            CredentialHealth resumed = apply(
                    profile, paused, new CredentialEvent.CredentialResumed(UUID.randomUUID(), Events.CREDENTIAL, t(1)));
            assertThat(resumed.account().status()).isEqualTo(AccountStatus.OK);

            CredentialHealth revoked = apply(profile, CredentialHealth.HEALTHY, permanent(0, "token has been revoked"));
            CredentialHealth restored = apply(
                    profile,
                    revoked,
                    new CredentialEvent.CredentialRestored(UUID.randomUUID(), Events.CREDENTIAL, t(1)));
            assertThat(restored.account()).isEqualTo(AccountState.HEALTHY);
        }
    }

    @Nested
    class Blacklist {

        @Test
        void offByDefault() {
            CredentialHealth state = CredentialHealth.HEALTHY;
            for (int i = 0; i < 50; i++) {
                state = apply(profile(FailurePolicy.DEFAULTS, SOL_AND_GLM), state, status(i, null, 500));
            }
            assertThat(state.account().status()).isEqualTo(AccountStatus.OK);
        }

        @Test
        void consecutiveFailuresExceedingTheThresholdFlipToErrorAndSuccessResetsTheCount() {
            CredentialProfile withThreshold =
                    new CredentialProfile(Platform.OPENAI, CredentialKind.API, SOL_AND_GLM, FailurePolicy.DEFAULTS, 3);
            CredentialHealth three = apply(
                    withThreshold,
                    CredentialHealth.HEALTHY,
                    status(0, null, 500),
                    status(1, null, 500),
                    status(2, null, 500));
            assertThat(three.account().status()).isEqualTo(AccountStatus.OK);
            CredentialHealth reset = apply(
                    withThreshold,
                    three,
                    success(3, null),
                    status(4, null, 500),
                    status(5, null, 500),
                    status(6, null, 500));
            assertThat(reset.account().transientFailureCount()).isEqualTo(3);
            assertThat(reset.account().status()).isEqualTo(AccountStatus.OK);
            CredentialHealth fourth = apply(withThreshold, reset, status(7, null, 500));
            assertThat(fourth.account().status()).isEqualTo(AccountStatus.ERROR);
        }

        CredentialProfile thresholdThree =
                new CredentialProfile(Platform.OPENAI, CredentialKind.API, SOL_AND_GLM, FailurePolicy.DEFAULTS, 3);

        /** Four consecutive account failures over a threshold of three: blacklisted. */
        CredentialHealth blacklisted() {
            return apply(
                    thresholdThree,
                    CredentialHealth.HEALTHY,
                    status(0, null, 500),
                    status(1, null, 500),
                    status(2, null, 500),
                    status(3, null, 500));
        }

        @Test
        void theBlacklistIsMarkedDurablyWithHowManyFailuresExceededTheThreshold() {
            AccountState account = blacklisted().account();
            assertThat(account.status()).isEqualTo(AccountStatus.ERROR);
            assertThat(account.lastFailureKind()).isEqualTo("blacklisted");
            assertThat(account.lastFailureMessage())
                    .contains("4 consecutive failures")
                    .contains("threshold of 3")
                    .contains("upstream returned 500");
        }

        @Test
        void laterFailuresAndSuccessesDoNotEraseTheMarker() {
            // a failing manual test, a quota answer, an in-flight request that succeeds after the flip
            CredentialHealth start = blacklisted();
            for (CredentialEvent later : List.of(
                    failure(10, null, "model_test", null, "connect timeout"),
                    failure(10, "upstream-sol", "model_test_status", 429, "upstream returned 429"),
                    quota(10, "insufficient_quota"),
                    success(10, "upstream-sol"))) {
                AccountState account = apply(thresholdThree, start, later).account();
                assertThat(account.status()).as("%s", later.type()).isEqualTo(AccountStatus.ERROR);
                assertThat(account.lastFailureKind()).as("%s", later.type()).isEqualTo("blacklisted");
                assertThat(account.lastFailureMessage())
                        .as("%s", later.type())
                        .isEqualTo(start.account().lastFailureMessage());
            }
        }

        @Test
        void scheduledReactivationLeavesABlacklistedAccountAlone() {
            CredentialHealth start = blacklisted();
            assertThat(apply(thresholdThree, start, scheduled(100))).isEqualTo(start);
        }

        @Test
        void otherErrorFlipsStillRecoverOnSchedule() {
            CredentialHealth quotaError =
                    apply(thresholdThree, CredentialHealth.HEALTHY, quota(0, "insufficient_quota"));
            assertThat(quotaError.account().status()).isEqualTo(AccountStatus.ERROR);
            assertThat(apply(thresholdThree, quotaError, scheduled(100)).account())
                    .isEqualTo(AccountState.HEALTHY);
        }

        @Test
        void aPersonBringsItBackByRestoreOrAnExplicitTest() {
            CredentialHealth start = blacklisted();
            assertThat(apply(
                                    thresholdThree,
                                    start,
                                    new CredentialEvent.CredentialRestored(UUID.randomUUID(), Events.CREDENTIAL, t(10)))
                            .account())
                    .isEqualTo(AccountState.HEALTHY);
            assertThat(apply(thresholdThree, start, test(10, "upstream-sol", true))
                            .account())
                    .isEqualTo(AccountState.HEALTHY);
        }

        @Test
        void aPauseKeepsTheMarkerAndTheResumeThatEndsItBringsTheAccountBack() {
            CredentialHealth paused = apply(
                    thresholdThree,
                    blacklisted(),
                    new CredentialEvent.CredentialPaused(UUID.randomUUID(), Events.CREDENTIAL, t(10)));
            assertThat(paused.account().lastFailureKind()).isEqualTo("blacklisted");

            CredentialHealth resumed = apply(
                    thresholdThree,
                    paused,
                    new CredentialEvent.CredentialResumed(UUID.randomUUID(), Events.CREDENTIAL, t(11)));
            assertThat(resumed.account())
                    .as("the person's resume is the verification; the count starts again")
                    .isEqualTo(AccountState.HEALTHY);
        }

        @Test
        void reachingTheThresholdIsNotEnough() {
            CredentialProfile thresholdOne =
                    new CredentialProfile(Platform.OPENAI, CredentialKind.API, SOL_AND_GLM, FailurePolicy.DEFAULTS, 1);
            CredentialHealth one = apply(thresholdOne, CredentialHealth.HEALTHY, status(0, null, 500));
            assertThat(one.account().status()).isEqualTo(AccountStatus.OK);
            assertThat(apply(thresholdOne, one, status(1, null, 500)).account().status())
                    .isEqualTo(AccountStatus.ERROR);
        }
    }

    @Nested
    class StoredDetails {

        @Test
        void theResponseBodyIsTruncatedTo8192CharactersWithAnEllipsis() {
            String body = "x".repeat(10_000);
            CredentialEvent event = new CredentialEvent.TransientFailureRecorded(
                    UUID.randomUUID(),
                    Events.CREDENTIAL,
                    t(0),
                    null,
                    "upstream_status",
                    500,
                    "upstream returned 500",
                    body);
            String stored = apply(profile(COOLDOWN_ON, SOL_AND_GLM), CredentialHealth.HEALTHY, event)
                    .account()
                    .lastFailureResponseJson();
            assertThat(stored).hasSize(8193).endsWith("…").startsWith("xxxx");
        }

        @Test
        void aBodyOfExactly8192CharactersIsKeptWhole() {
            String body = "y".repeat(8192);
            CredentialEvent event = new CredentialEvent.TransientFailureRecorded(
                    UUID.randomUUID(), Events.CREDENTIAL, t(0), null, "upstream_status", 500, "m", body);
            assertThat(apply(profile(COOLDOWN_ON, SOL_AND_GLM), CredentialHealth.HEALTHY, event)
                            .account()
                            .lastFailureResponseJson())
                    .isEqualTo(body);
        }

        @Test
        void theFailureMessageIsStoredTruncatedOnTheAccountAndTheModelRowInEveryChannel() {
            String message = "m".repeat(FailureText.MAX_MESSAGE_CHARS + 500);
            String cut = "m".repeat(FailureText.MAX_MESSAGE_CHARS) + "…";
            CredentialProfile profile = profile(COOLDOWN_ON, SOL_AND_GLM);

            CredentialHealth modelScoped = apply(
                    profile, CredentialHealth.HEALTHY, failure(0, "upstream-sol", "upstream_status", 429, message));
            assertThat(modelScoped.account().lastFailureMessage()).isEqualTo(cut);
            assertThat(modelScoped.models().get("upstream-sol").lastFailureMessage())
                    .isEqualTo(cut);
            assertThat(apply(profile, CredentialHealth.HEALTHY, failure(0, null, "transport", null, message))
                            .account()
                            .lastFailureMessage())
                    .isEqualTo(cut);
            assertThat(apply(profile, CredentialHealth.HEALTHY, quota(0, message))
                            .account()
                            .lastFailureMessage())
                    .isEqualTo(cut);
            assertThat(apply(profile, CredentialHealth.HEALTHY, permanent(0, "invalid_grant " + message))
                            .account()
                            .lastFailureMessage())
                    .hasSize(FailureText.MAX_MESSAGE_CHARS + 1)
                    .endsWith("…");
        }

        @Test
        void aMessageAtTheLimitIsKeptWholeAndASurrogatePairIsNeverSplit() {
            String exact = "k".repeat(FailureText.MAX_MESSAGE_CHARS);
            assertThat(FailureText.truncateMessage(exact)).isEqualTo(exact);
            String emojiAtTheCut = "a".repeat(FailureText.MAX_MESSAGE_CHARS - 1) + "😀tail";
            String stored = FailureText.truncateMessage(emojiAtTheCut);
            assertThat(stored).isEqualTo("a".repeat(FailureText.MAX_MESSAGE_CHARS - 1) + "…");
            assertThat(FailureText.truncateMessage(null)).isNull();
        }
    }

    @Nested
    class Timeline {

        @Test
        void anAccountScopedFailureEntersCoolingUntilItsWindowWithTheUpstreamMessageAsTheReason() {
            CredentialProfile profile = profile(COOLDOWN_ON, SOL_AND_GLM);
            Transition failed = StateTransition.apply(
                    profile,
                    CredentialHealth.HEALTHY,
                    failure(0, "upstream-sol", "transport", null, "connect refused"));
            assertThat(failed.changes()).singleElement().satisfies(change -> {
                assertThat(change.modelKey()).isNull();
                assertThat(change.from()).isEqualTo("ok");
                assertThat(change.to()).isEqualTo("cooling");
                assertThat(change.until()).isEqualTo(t(10));
                assertThat(change.cause()).isEqualTo("transient-failure-recorded.v1/transport");
                assertThat(change.detail()).isEqualTo("connect refused");
            });
        }

        @Test
        void aCoolingRowCooledAgainIsRecordedWithItsNewUntilAndAnUnchangedOneIsNot() {
            CredentialProfile profile = profile(COOLDOWN_ON, SOL_AND_GLM);
            CredentialHealth cooling = apply(profile, CredentialHealth.HEALTHY, status(0, "upstream-sol", 429));
            // a late event for the same model inside the window moves the window: the timeline says so
            Transition again = StateTransition.apply(profile, cooling, status(5, "upstream-sol", 429));
            assertThat(again.changes())
                    .filteredOn(change -> "upstream-sol".equals(change.modelKey()))
                    .singleElement()
                    .satisfies(change -> {
                        assertThat(change.from()).isEqualTo("cooling");
                        assertThat(change.to()).isEqualTo("cooling");
                        assertThat(change.until()).isEqualTo(t(15));
                        assertThat(change.detail()).isEqualTo("upstream returned 429");
                    });
            // a success for the other model changes the account only: the cooling row is not reported
            Transition other = StateTransition.apply(profile, again.next(), success(6, "upstream-glm"));
            assertThat(other.changes()).extracting(HealthChange::modelKey).doesNotContain("upstream-sol");
        }

        @Test
        void recoveriesNameWhatRecoveredTheCredential() {
            CredentialProfile profile = profile(COOLDOWN_ON, SOL_AND_GLM);
            CredentialHealth quota = apply(profile, CredentialHealth.HEALTHY, quota(0, "insufficient quota"));
            assertThat(quota.account().status()).isEqualTo(AccountStatus.ERROR);

            Transition scheduled = StateTransition.apply(profile, quota, scheduled(60));
            assertThat(scheduled.changes()).singleElement().satisfies(change -> {
                assertThat(change.from()).isEqualTo("error");
                assertThat(change.to()).isEqualTo("ok");
                assertThat(change.isRecovery()).isTrue();
                assertThat(change.detail()).isEqualTo("scheduled recovery at 03:00");
            });

            Transition explicit = StateTransition.apply(profile, quota, test(60, "upstream-sol", true));
            assertThat(explicit.changes()).singleElement().satisfies(change -> {
                assertThat(change.to()).isEqualTo("ok");
                assertThat(change.detail()).isEqualTo("explicit model test passed");
            });
        }

        @Test
        void reportsModelCoolingAndRecovery() {
            CredentialProfile profile = profile(COOLDOWN_ON, SOL_AND_GLM);
            Transition failed =
                    StateTransition.apply(profile, CredentialHealth.HEALTHY, status(0, "upstream-sol", 429));
            assertThat(failed.changes())
                    .extracting(HealthChange::modelKey, HealthChange::from, HealthChange::to)
                    .containsExactly(
                            org.assertj.core.groups.Tuple.tuple(null, "ok", "failing"),
                            org.assertj.core.groups.Tuple.tuple("upstream-sol", "absent", "cooling"));
            assertThat(failed.changes().get(1)).satisfies(change -> {
                assertThat(change.from()).isEqualTo("absent");
                assertThat(change.to()).isEqualTo("cooling");
                assertThat(change.until()).isEqualTo(t(10));
                assertThat(change.cause()).isEqualTo("transient-failure-recorded.v1/upstream_status");
            });
            Transition recovered = StateTransition.apply(profile, failed.next(), success(20, "upstream-sol"));
            assertThat(recovered.changes()).hasSize(2).allSatisfy(change -> {
                assertThat(change.isRecovery()).isTrue();
                assertThat(change.cause()).isEqualTo("attempt-succeeded.v1");
            });
        }
    }
}
