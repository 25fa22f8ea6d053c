package io.routegateway.core.select;

import java.util.List;
import java.util.Map;
import java.util.Set;

import io.routegateway.core.event.CredentialSnapshot;
import io.routegateway.core.model.CredentialKind;
import io.routegateway.core.model.Platform;
import io.routegateway.core.oauth.AuthState;
import io.routegateway.core.oauth.OAuthStatus;
import io.routegateway.core.state.AccountStatus;
import io.routegateway.core.state.ModelState;
import org.junit.jupiter.api.Test;

import static io.routegateway.core.select.Fixtures.NOW;
import static io.routegateway.core.select.Fixtures.cred;
import static io.routegateway.core.select.Fixtures.in;
import static org.assertj.core.api.Assertions.assertThat;

class SelectionStepsTests {

    private static List<String> ids(List<PoolCandidate> candidates) {
        return candidates.stream().map(PoolCandidate::credentialId).toList();
    }

    private static CooldownPartition partition(List<CredentialSnapshot> pool, String model, Set<String> tried) {
        List<PoolCandidate> matched =
                SelectionSteps.filterForModel(SelectionSteps.filterForRule(SelectionSteps.loadCandidates(pool)), model);
        return SelectionSteps.partitionByCooldown(matched, SelectionSteps.loadModelStates(matched), tried, NOW);
    }

    // ---- step 1 -----------------------------------------------------------------------------

    @Test
    void step1DropsDisabledArchivedAndOutOfPoolAsCredentialDisabled() {
        assertThat(SelectionSteps.loadRejection(cred("a").disabled().build()))
                .isEqualTo(ReasonCode.CREDENTIAL_DISABLED);
        assertThat(SelectionSteps.loadRejection(cred("a").archived().build()))
                .isEqualTo(ReasonCode.CREDENTIAL_DISABLED);
        assertThat(SelectionSteps.loadRejection(cred("a").notInPool().build()))
                .isEqualTo(ReasonCode.CREDENTIAL_DISABLED);
        assertThat(SelectionSteps.loadRejection(
                        cred("a").status(AccountStatus.PAUSED).build()))
                .isEqualTo(ReasonCode.CREDENTIAL_DISABLED);
    }

    @Test
    void step1DropsRevokedSubscriptionAccountAsAuthUnavailable() {
        CredentialSnapshot official = cred("a")
                .official(Platform.CLAUDE)
                .status(AccountStatus.REVOKED)
                .build();
        assertThat(SelectionSteps.loadRejection(official)).isEqualTo(ReasonCode.CREDENTIAL_AUTH_UNAVAILABLE);
    }

    @Test
    void step1DropsAnOfficialAccountWhoseAuthorizationIsExpiredOrMissingAsAuthUnavailable() {
        java.time.Instant expiredAt = NOW.minusSeconds(60);
        CredentialSnapshot expired = cred("a")
                .official(Platform.CODEX)
                .oauth(new OAuthStatus(AuthState.EXPIRED, expiredAt, "acct-1", null))
                .build();
        CredentialSnapshot unauthorized = cred("b")
                .official(Platform.CLAUDE)
                .oauth(OAuthStatus.unauthorized())
                .build();
        CredentialSnapshot authorized = cred("c")
                .official(Platform.CODEX)
                .oauth(new OAuthStatus(AuthState.AUTHORIZED, NOW.plusSeconds(3600), "acct-1", NOW))
                .build();
        CredentialSnapshot staticToken = cred("d").official(Platform.CODEX).build();

        assertThat(SelectionSteps.loadRejection(expired)).isEqualTo(ReasonCode.CREDENTIAL_AUTH_UNAVAILABLE);
        assertThat(SelectionSteps.loadRejectionDetail(expired))
                .isEqualTo("authorization expired (access token expired at " + expiredAt
                        + "): no refresh has succeeded yet — reauthorize if it persists");
        assertThat(SelectionSteps.loadRejection(unauthorized)).isEqualTo(ReasonCode.CREDENTIAL_AUTH_UNAVAILABLE);
        assertThat(SelectionSteps.loadRejectionDetail(unauthorized))
                .isEqualTo("authorization unauthorized: the subscription account awaits onboarding — authorize it");
        assertThat(SelectionSteps.loadRejection(authorized)).isNull();
        assertThat(SelectionSteps.loadRejectionDetail(authorized)).isNull();
        // a legacy official credential holding a static token (oauth null) keeps working
        assertThat(SelectionSteps.loadRejection(staticToken)).isNull();
        assertThat(SelectionSteps.loadCandidates(List.of(expired, unauthorized, authorized, staticToken)))
                .containsExactly(authorized, staticToken);
    }

    @Test
    void aPoolWhoseEveryAccountLacksAuthorizationFailsWithAuthUnavailableNotNoEnabledCredentials() {
        CredentialSnapshot expired = cred("a")
                .official(Platform.CODEX)
                .oauth(new OAuthStatus(AuthState.EXPIRED, NOW.minusSeconds(1), null, null))
                .build();
        CredentialSnapshot revoked =
                cred("b").official(Platform.CODEX).status(AccountStatus.REVOKED).build();
        assertThat(SelectionSteps.selectFromPool(List.of(expired, revoked), "gpt-5", Set.of(), NOW)
                        .failure())
                .isEqualTo(ReasonCode.CREDENTIAL_AUTH_UNAVAILABLE);
        // one disabled api key among them: the pool's answer stays the general one
        assertThat(SelectionSteps.selectFromPool(
                                List.of(expired, cred("c").disabled().build()), "gpt-5", Set.of(), NOW)
                        .failure())
                .isEqualTo(ReasonCode.NO_ENABLED_CREDENTIALS);
    }

    @Test
    void aRevokedSubscriptionAccountsDetailSaysToReauthorize() {
        CredentialSnapshot official = cred("a")
                .official(Platform.CLAUDE)
                .status(AccountStatus.REVOKED)
                .build();
        assertThat(SelectionSteps.loadRejectionDetail(official))
                .startsWith("status revoked")
                .contains("reauthorize");
        assertThat(SelectionSteps.loadRejectionDetail(
                        cred("b").status(AccountStatus.REVOKED).build()))
                .isEqualTo("status revoked");
    }

    @Test
    void step1DropsErrorWarningRevokedApiKeyAndNoQuotaAsBlacklisted() {
        assertThat(SelectionSteps.loadRejection(
                        cred("a").status(AccountStatus.ERROR).build()))
                .isEqualTo(ReasonCode.CREDENTIAL_BLACKLISTED);
        assertThat(SelectionSteps.loadRejection(
                        cred("a").status(AccountStatus.WARNING).build()))
                .isEqualTo(ReasonCode.CREDENTIAL_BLACKLISTED);
        assertThat(SelectionSteps.loadRejection(
                        cred("a").status(AccountStatus.REVOKED).build()))
                .isEqualTo(ReasonCode.CREDENTIAL_BLACKLISTED);
        assertThat(SelectionSteps.loadRejection(cred("a").quota(0L).build()))
                .isEqualTo(ReasonCode.CREDENTIAL_BLACKLISTED);
        assertThat(SelectionSteps.loadRejection(cred("a").quota(-3L).build()))
                .isEqualTo(ReasonCode.CREDENTIAL_BLACKLISTED);
    }

    @Test
    void step1KeepsNullOrPositiveQuotaAndDoesNotJudgeCooldown() {
        assertThat(SelectionSteps.loadRejection(cred("a").quota(null).build())).isNull();
        assertThat(SelectionSteps.loadRejection(cred("a").quota(1L).build())).isNull();
        CredentialSnapshot cooling =
                cred("a").accountCooling(in(60)).modelCooling("m", in(60)).build();
        assertThat(SelectionSteps.loadCandidates(List.of(cooling))).containsExactly(cooling);
    }

    // ---- step 2 -----------------------------------------------------------------------------

    @Test
    void step2PlatformCapabilityRuleEmptyIsNoEnabledRouteCredentialsInPool() {
        CredentialSnapshot officialOnApiOnlyPlatform = cred("a")
                .platform(Platform.OPENAI)
                .kind(CredentialKind.OFFICIAL)
                .build();
        assertThat(SelectionSteps.filterForRule(List.of(officialOnApiOnlyPlatform)))
                .isEmpty();
        SelectionSteps.PoolSelection selection =
                SelectionSteps.selectFromPool(List.of(officialOnApiOnlyPlatform), "m", Set.of(), NOW);
        assertThat(selection.failure()).isEqualTo(ReasonCode.NO_ENABLED_CREDENTIALS);
        assertThat(selection.failure().meaning()).isEqualTo("No enabled route credentials in pool");
    }

    @Test
    void step1EmptyAlsoEndsAsNoEnabledRouteCredentials() {
        SelectionSteps.PoolSelection selection = SelectionSteps.selectFromPool(
                List.of(cred("a").disabled().serves("m").build()), "m", Set.of(), NOW);
        assertThat(selection.failure()).isEqualTo(ReasonCode.NO_ENABLED_CREDENTIALS);
    }

    @Test
    void emptyPoolIsNoCredentials() {
        assertThat(SelectionSteps.selectFromPool(List.of(), "m", Set.of(), NOW).failure())
                .isEqualTo(ReasonCode.NO_CREDENTIALS);
    }

    // ---- step 3 -----------------------------------------------------------------------------

    @Test
    void step3NoAccountMapsTheModelIsModelUnmatched() {
        SelectionSteps.PoolSelection selection = SelectionSteps.selectFromPool(
                List.of(cred("a").serves("glm-5.3").build()), "gpt-5.6-sol", Set.of(), NOW);
        assertThat(selection.failure()).isEqualTo(ReasonCode.MODEL_UNMATCHED);
    }

    @Test
    void step3ResolvesTheModelKeyFromTheMappingsTarget() {
        List<PoolCandidate> matched = SelectionSteps.filterForModel(
                List.of(cred("a")
                        .maps("claude-sonnet-alias[1m]", "upstream-sonnet[1m]")
                        .build()),
                "claude-sonnet-alias[1m]");
        assertThat(matched).singleElement().satisfies(candidate -> {
            assertThat(candidate.modelKey()).isEqualTo("upstream-sonnet");
            assertThat(candidate.upstreamModel()).isEqualTo("upstream-sonnet[1m]");
        });
    }

    @Test
    void requestWithoutModelSkipsModelFilterAndModelStateAndChargesTheAccount() {
        CredentialSnapshot paused =
                cred("a").serves("glm-5.3").paused("glm-5.3").build();
        SelectionSteps.PoolSelection selection = SelectionSteps.selectFromPool(List.of(paused), null, Set.of(), NOW);
        assertThat(selection.failure()).isNull();
        assertThat(selection.selected()).singleElement().satisfies(candidate -> {
            assertThat(candidate.modelKey()).isNull();
            assertThat(candidate.upstreamModel()).isNull();
        });
        assertThat(SelectionSteps.selectFromPool(List.of(paused), "  ", Set.of(), NOW)
                        .selected())
                .hasSize(1);
    }

    @Test
    void requestWithoutModelStillHonoursAccountCooldown() {
        CredentialSnapshot cooling = cred("a").accountCooling(in(30)).build();
        SelectionSteps.PoolSelection selection = SelectionSteps.selectFromPool(List.of(cooling), null, Set.of(), NOW);
        assertThat(selection.fromCoolingFallback()).isTrue();
        assertThat(selection.recoveryAt()).isEqualTo(in(30));
    }

    // ---- step 4 -----------------------------------------------------------------------------

    @Test
    void step4ModelStateIsKeyedByTheCredentialAndModelKeyPair() {
        // Both accounts serve "sol", under different upstream names. A's row for B's upstream name and
        // B's row for A's upstream name must not affect either of them.
        CredentialSnapshot a = cred("a").maps("sol", "up-a").paused("up-b").build();
        CredentialSnapshot b = cred("b").maps("sol", "up-b").paused("up-a").build();
        List<PoolCandidate> matched = SelectionSteps.filterForModel(List.of(a, b), "sol");
        Map<CredentialModelKey, ModelState> states = SelectionSteps.loadModelStates(matched);
        assertThat(states).isEmpty();
        assertThat(ids(SelectionSteps.partitionByCooldown(matched, states, NOW).eligible()))
                .containsExactly("a", "b");

        CredentialSnapshot aPaused =
                cred("a").maps("sol", "up-a").paused("up-a").build();
        List<PoolCandidate> matched2 = SelectionSteps.filterForModel(List.of(aPaused, b), "sol");
        Map<CredentialModelKey, ModelState> states2 = SelectionSteps.loadModelStates(matched2);
        assertThat(states2).containsOnlyKeys(new CredentialModelKey("a", "up-a"));
        assertThat(ids(SelectionSteps.partitionByCooldown(matched2, states2, NOW)
                        .eligible()))
                .containsExactly("b");
    }

    // ---- step 5 -----------------------------------------------------------------------------

    @Test
    void pausedModelIsDroppedOutrightAndNeverTheFallback() {
        CooldownPartition partition = partition(
                List.of(
                        cred("a").serves("m").paused("m").build(),
                        cred("b").serves("m").modelCooling("m", in(20)).build()),
                "m",
                Set.of());
        assertThat(partition.eligible()).isEmpty();
        assertThat(partition.dropped()).singleElement().satisfies(drop -> {
            assertThat(drop.candidate().credentialId()).isEqualTo("a");
            assertThat(drop.reason()).isEqualTo(ReasonCode.MODEL_UNAVAILABLE);
        });
        assertThat(ids(partition.selected())).containsExactly("b");
    }

    @Test
    void errorModelIsDroppedOutrightAndNeverTheFallback() {
        CooldownPartition partition =
                partition(List.of(cred("a").serves("m").errored("m").build()), "m", Set.of());
        assertThat(partition.selected()).isEmpty();
        assertThat(partition.cooling()).isEmpty();
        assertThat(partition.emptyReason()).isEqualTo(ReasonCode.MODEL_UNAVAILABLE);
    }

    @Test
    void pausedAndErrorEverywhereIsModelUnavailable() {
        SelectionSteps.PoolSelection selection = SelectionSteps.selectFromPool(
                List.of(
                        cred("a").serves("m").paused("m").build(),
                        cred("b").serves("m").errored("m").accountCooling(in(5)).build()),
                "m",
                Set.of(),
                NOW);
        assertThat(selection.failure()).isEqualTo(ReasonCode.MODEL_UNAVAILABLE);
    }

    @Test
    void accountCooldownOrNextRetryOrModelCooldownPutsTheCandidateInTheCoolingBucket() {
        CooldownPartition partition = partition(
                List.of(
                        cred("cooldown").serves("m").cooldownUntil(in(10)).build(),
                        cred("retry").serves("m").nextRetryAt(in(10)).build(),
                        cred("model").serves("m").modelCooling("m", in(10)).build(),
                        cred("expired")
                                .serves("m")
                                .accountCooling(in(-1))
                                .modelCooling("m", NOW)
                                .build()),
                "m",
                Set.of());
        assertThat(partition.cooling())
                .extracting(cooling -> cooling.candidate().credentialId())
                .containsExactly("cooldown", "retry", "model");
        assertThat(ids(partition.eligible())).containsExactly("expired");
        assertThat(ids(partition.selected())).containsExactly("expired");
    }

    @Test
    void recoveryTimeIsTheLaterOfAccountAndModelTimestamps() {
        CooldownPartition partition = partition(
                List.of(
                        cred("a")
                                .serves("m")
                                .accountCooling(in(30))
                                .modelCooling("m", in(10))
                                .build(),
                        cred("b")
                                .serves("m")
                                .accountCooling(in(-100))
                                .modelCooling("m", in(40))
                                .build()),
                "m",
                Set.of());
        assertThat(partition.cooling())
                .extracting(CooldownPartition.Cooling::recoveryAt)
                .containsExactly(in(30), in(40));
    }

    @Test
    void nonEmptyEligibleBucketIsUsedAsIs() {
        CooldownPartition partition = partition(
                List.of(
                        cred("a").serves("m").accountCooling(in(1)).build(),
                        cred("b").serves("m").build(),
                        cred("c").serves("m").build()),
                "m",
                Set.of());
        assertThat(ids(partition.selected())).containsExactly("b", "c");
        assertThat(partition.usesFallback()).isFalse();
    }

    @Test
    void fallbackPicksTheSoonestRecoveringCoolingCandidate() {
        SelectionSteps.PoolSelection selection = SelectionSteps.selectFromPool(
                List.of(
                        cred("a").serves("m").accountCooling(in(50)).build(),
                        cred("b").serves("m").modelCooling("m", in(20)).build(),
                        cred("c").serves("m").accountCooling(in(30)).build()),
                "m",
                Set.of(),
                NOW);
        assertThat(ids(selection.selected())).containsExactly("b");
        assertThat(selection.fromCoolingFallback()).isTrue();
        assertThat(selection.recoveryAt()).isEqualTo(in(20));
    }

    @Test
    void fallbackTiebreakIsTheOriginalOrder() {
        SelectionSteps.PoolSelection selection = SelectionSteps.selectFromPool(
                List.of(
                        cred("z").serves("m").accountCooling(in(20)).build(),
                        cred("a").serves("m").accountCooling(in(20)).build(),
                        cred("m").serves("m").accountCooling(in(20)).build()),
                "m",
                Set.of(),
                NOW);
        assertThat(ids(selection.selected())).containsExactly("z");
    }

    @Test
    void aCooldownAloneNeverProducesModelUnavailable() {
        SelectionSteps.PoolSelection selection = SelectionSteps.selectFromPool(
                List.of(
                        cred("a").serves("m").paused("m").build(),
                        cred("b").serves("m").accountCooling(in(600)).build()),
                "m",
                Set.of(),
                NOW);
        assertThat(selection.failure()).isNull();
        assertThat(ids(selection.selected())).containsExactly("b");
    }

    @Test
    void specDefectExampleCoolingBIsTheLastResortProbeNotModelUnmatched() {
        // A serves only glm-5.3 and is healthy; B serves only gpt-5.6-sol and is cooling.
        CredentialSnapshot a = cred("A").serves("glm-5.3").build();
        CredentialSnapshot b = cred("B")
                .serves("gpt-5.6-sol")
                .modelCooling("gpt-5.6-sol", in(8))
                .build();
        SelectionSteps.PoolSelection selection =
                SelectionSteps.selectFromPool(List.of(a, b), "gpt-5.6-sol", Set.of(), NOW);
        assertThat(selection.failure()).isNull();
        assertThat(ids(selection.selected())).containsExactly("B");
        assertThat(selection.fromCoolingFallback()).isTrue();
    }

    @Test
    void alreadyTriedCredentialIsCredentialNotAllowedAndNeverTheFallback() {
        CooldownPartition partition = partition(
                List.of(
                        cred("a").serves("m").accountCooling(in(1)).build(),
                        cred("b").serves("m").accountCooling(in(9)).build()),
                "m",
                Set.of("a"));
        assertThat(partition.dropped()).singleElement().satisfies(drop -> {
            assertThat(drop.candidate().credentialId()).isEqualTo("a");
            assertThat(drop.reason()).isEqualTo(ReasonCode.CREDENTIAL_NOT_ALLOWED);
        });
        assertThat(ids(partition.selected())).containsExactly("b");
    }

    @Test
    void everyCandidateTriedIsNoAvailableCredential() {
        SelectionSteps.PoolSelection selection = SelectionSteps.selectFromPool(
                List.of(
                        cred("a").serves("m").build(),
                        cred("b").serves("m").paused("m").build()),
                "m",
                Set.of("a"),
                NOW);
        assertThat(selection.failure()).isEqualTo(ReasonCode.NO_AVAILABLE_CREDENTIAL);
    }

    @Test
    void legacyManualWeightZeroIsCredentialWeightZeroAndNeverSelected() {
        CooldownPartition partition = partition(
                List.of(
                        cred("a").serves("m").manualWeight(0).build(),
                        cred("b").serves("m").manualWeight(5).build()),
                "m",
                Set.of());
        assertThat(partition.dropped()).singleElement().satisfies(drop -> {
            assertThat(drop.candidate().credentialId()).isEqualTo("a");
            assertThat(drop.reason()).isEqualTo(ReasonCode.CREDENTIAL_WEIGHT_ZERO);
        });
        assertThat(ids(partition.selected())).containsExactly("b");
    }
}
