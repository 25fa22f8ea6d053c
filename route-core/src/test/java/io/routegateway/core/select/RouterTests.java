package io.routegateway.core.select;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;

import io.routegateway.core.event.AccessKeySnapshot;
import io.routegateway.core.event.CredentialSnapshot;
import io.routegateway.core.event.GroupSnapshot;
import io.routegateway.core.model.Platform;
import io.routegateway.core.model.Protocol;
import io.routegateway.core.oauth.AuthState;
import io.routegateway.core.oauth.OAuthStatus;
import org.junit.jupiter.api.Test;

import static io.routegateway.core.select.Fixtures.NOW;
import static io.routegateway.core.select.Fixtures.cred;
import static io.routegateway.core.select.Fixtures.group;
import static io.routegateway.core.select.Fixtures.in;
import static io.routegateway.core.select.Fixtures.key;
import static org.assertj.core.api.Assertions.assertThat;

class RouterTests {

    private static final AccessKeySnapshot KEY = key("k").build();

    private static RouteResult route(PoolView view, String model) {
        return route(view, KEY, model, Set.of());
    }

    private static RouteResult route(PoolView view, AccessKeySnapshot key, String model, Set<String> tried) {
        return Router.route(
                view,
                new RouteRequest(key, Protocol.OPENAI_CHAT, model, null),
                tried,
                null,
                new SplittableRandom(7),
                NOW,
                false);
    }

    private static RouteResult traced(PoolView view, String model) {
        return Router.route(
                view,
                new RouteRequest(KEY, Protocol.OPENAI_CHAT, model, null),
                Set.of(),
                null,
                new SplittableRandom(7),
                NOW,
                true);
    }

    private static PoolView view(List<CredentialSnapshot> credentials, GroupSnapshot... groups) {
        return PoolView.of(credentials, List.of(groups), List.of(KEY));
    }

    private static RouteResult.Selected selected(RouteResult result) {
        assertThat(result).isInstanceOf(RouteResult.Selected.class);
        return (RouteResult.Selected) result;
    }

    private static RouteResult.Refused refused(RouteResult result) {
        assertThat(result).isInstanceOf(RouteResult.Refused.class);
        return (RouteResult.Refused) result;
    }

    // ---- credentials at their own limits ----------------------------------------------------------

    private static RouteResult routeWithFull(PoolView view, Set<String> full, boolean probe, boolean trace) {
        return Router.route(
                view,
                new RouteRequest(KEY, Protocol.OPENAI_CHAT, "m", null),
                Set.of(),
                probe,
                credential -> full.contains(credential.credentialId()),
                null,
                new SplittableRandom(7),
                NOW,
                trace);
    }

    @Test
    void aFullCredentialIsSkippedWithCredentialFullAndTheNextOneServes() {
        PoolView pool = view(
                List.of(
                        cred("a-full").serves("m").priority(0).build(),
                        cred("b-free").serves("m").priority(1).build()),
                group("g1").build());
        for (int draw = 0; draw < 20; draw++) {
            assertThat(selected(routeWithFull(pool, Set.of("a-full"), true, false))
                            .credential()
                            .credentialId())
                    .isEqualTo("b-free");
        }
        RouteResult.Selected traced = selected(routeWithFull(pool, Set.of("a-full"), true, true));
        RouteTrace.CredentialTrace skipped = traced.trace().groups().get(0).credentials().stream()
                .filter(c -> c.credentialId().equals("a-full"))
                .findFirst()
                .orElseThrow();
        assertThat(skipped.step()).isEqualTo(5);
        assertThat(skipped.verdict()).isEqualTo(RouteTrace.Verdict.DROPPED);
        assertThat(skipped.reason()).isEqualTo(ReasonCode.CREDENTIAL_FULL);
        assertThat(skipped.detail()).contains("rpm_limit");
        // without the check the preferred credential serves again
        assertThat(selected(route(pool, "m")).credential().credentialId()).isEqualTo("a-full");
    }

    @Test
    void onlyFullCredentialsLeftIsNoAvailableCredentialAndNeverTheCoolingProbe() {
        PoolView pool = view(
                List.of(
                        cred("full").serves("m").build(),
                        cred("full-and-cooling")
                                .serves("m")
                                .accountCooling(in(5))
                                .build()),
                group("g1").build());
        RouteResult.Refused refused = refused(routeWithFull(pool, Set.of("full", "full-and-cooling"), true, true));
        assertThat(refused.code()).isEqualTo(ReasonCode.NO_AVAILABLE_CREDENTIAL);
        assertThat(refused.trace().groups().get(0).credentials())
                .allSatisfy(c -> assertThat(c.reason()).isEqualTo(ReasonCode.CREDENTIAL_FULL));
        // a cooling credential that is not full is still the probe
        RouteResult.Selected probe = selected(routeWithFull(pool, Set.of("full"), true, false));
        assertThat(probe.credential().credentialId()).isEqualTo("full-and-cooling");
        assertThat(probe.fromCoolingFallback()).isTrue();
    }

    @Test
    void aPausedModelThatIsAlsoFullStillSaysPausedAndTheFreeOneServes() {
        PoolView pool = view(
                List.of(
                        cred("paused").serves("m").paused("m").build(),
                        cred("free").serves("m").build()),
                group("g1").build());
        RouteResult.Selected selected = selected(routeWithFull(pool, Set.of("paused"), true, true));
        assertThat(selected.credential().credentialId()).isEqualTo("free");
        RouteTrace.CredentialTrace paused = selected.trace().groups().get(0).credentials().stream()
                .filter(c -> c.credentialId().equals("paused"))
                .findFirst()
                .orElseThrow();
        assertThat(paused.reason()).isEqualTo(ReasonCode.MODEL_UNAVAILABLE);
    }

    // ---- the five steps through the router -----------------------------------------------------

    @Test
    void anOfficialAccountWithoutUsableAuthorizationIsSkippedWithAuthUnavailableAndTheNextOneServes() {
        CredentialSnapshot expired = cred("a-expired")
                .official(Platform.CODEX)
                .priority(0)
                .oauth(new OAuthStatus(AuthState.EXPIRED, NOW.minusSeconds(5), "acct-a", null))
                .build();
        CredentialSnapshot authorized = cred("b-authorized")
                .official(Platform.CODEX)
                .priority(1)
                .oauth(new OAuthStatus(AuthState.AUTHORIZED, NOW.plusSeconds(3600), "acct-b", NOW))
                .build();
        RouteResult.Selected selected =
                selected(traced(view(List.of(expired, authorized), group("g1").build()), "gpt-5"));
        assertThat(selected.credential().credentialId()).isEqualTo("b-authorized");
        RouteTrace.CredentialTrace skipped = selected.trace().groups().get(0).credentials().stream()
                .filter(c -> c.credentialId().equals("a-expired"))
                .findFirst()
                .orElseThrow();
        assertThat(skipped.step()).isEqualTo(1);
        assertThat(skipped.verdict()).isEqualTo(RouteTrace.Verdict.DROPPED);
        assertThat(skipped.reason()).isEqualTo(ReasonCode.CREDENTIAL_AUTH_UNAVAILABLE);
        assertThat(skipped.detail()).startsWith("authorization expired");

        RouteResult.Refused refused =
                refused(traced(view(List.of(expired), group("g1").build()), "gpt-5"));
        assertThat(refused.code()).isEqualTo(ReasonCode.CREDENTIAL_AUTH_UNAVAILABLE);
        assertThat(refused.httpStatus()).isEqualTo(502);
        assertThat(refused.trace().groups().get(0).credentials())
                .singleElement()
                .satisfies(c -> assertThat(c.reason()).isEqualTo(ReasonCode.CREDENTIAL_AUTH_UNAVAILABLE));
    }

    @Test
    void specDefectExampleSelectsCoolingBViaTheFallback() {
        PoolView view = view(
                List.of(
                        cred("A").serves("glm-5.3").build(),
                        cred("B")
                                .serves("gpt-5.6-sol")
                                .modelCooling("gpt-5.6-sol", in(8))
                                .build()),
                group("g1").build());
        RouteResult.Selected selected = selected(route(view, "gpt-5.6-sol"));
        assertThat(selected.credential().credentialId()).isEqualTo("B");
        assertThat(selected.fromCoolingFallback()).isTrue();
        assertThat(selected.recoveryAt()).isEqualTo(in(8));
        assertThat(selected.modelKey()).isEqualTo("gpt-5.6-sol");
    }

    @Test
    void wholePoolCoolingProbesTheSoonestRecoveringWithTheOriginalOrderAsTiebreak() {
        GroupSnapshot g1 = group("g1").build();
        RouteResult.Selected soonest = selected(route(
                view(
                        List.of(
                                cred("z").serves("m").accountCooling(in(20)).build(),
                                cred("a").serves("m").modelCooling("m", in(5)).build(),
                                cred("q").serves("m").accountCooling(in(30)).build()),
                        g1),
                "m"));
        assertThat(soonest.credential().credentialId()).isEqualTo("a");
        assertThat(soonest.fromCoolingFallback()).isTrue();
        assertThat(soonest.recoveryAt()).isEqualTo(in(5));

        RouteResult.Selected tie = selected(route(
                view(
                        List.of(
                                cred("a")
                                        .serves("m")
                                        .priority(1)
                                        .accountCooling(in(20))
                                        .build(),
                                cred("z")
                                        .serves("m")
                                        .priority(0)
                                        .accountCooling(in(20))
                                        .build(),
                                cred("m")
                                        .serves("m")
                                        .priority(0)
                                        .modelCooling("m", in(20))
                                        .build()),
                        g1),
                "m"));
        assertThat(tie.credential().credentialId())
                .as("equal recovery times: the first in the pool's original order (priority, then id)")
                .isEqualTo("m");
    }

    @Test
    void eachPoolStepHasItsOwnRefusal() {
        GroupSnapshot g1 = group("g1").exposes("m").build();
        assertThat(refused(route(view(List.of(), g1), "m")).code()).isEqualTo(ReasonCode.NO_CREDENTIALS);
        assertThat(refused(route(view(List.of(cred("a").serves("m").disabled().build()), g1), "m"))
                        .code())
                .isEqualTo(ReasonCode.NO_ENABLED_CREDENTIALS);
        assertThat(refused(route(view(List.of(cred("a").serves("x").build()), g1), "m"))
                        .code())
                .isEqualTo(ReasonCode.MODEL_UNMATCHED);
        assertThat(refused(route(view(List.of(cred("a").serves("m").paused("m").build()), g1), "m"))
                        .code())
                .isEqualTo(ReasonCode.MODEL_UNAVAILABLE);
        assertThat(refused(route(view(List.of(cred("a").serves("m").build()), g1), KEY, "m", Set.of("a")))
                        .code())
                .isEqualTo(ReasonCode.NO_AVAILABLE_CREDENTIAL);
    }

    @Test
    void noEnabledCredentialsRefusalCarriesTheSpecMessageVerbatimAnd502() {
        RouteResult.Refused refused = refused(route(
                view(
                        List.of(cred("a").serves("m").disabled().build()),
                        group("g1").exposes("m").build()),
                "m"));
        assertThat(refused.message()).isEqualTo("No enabled route credentials in pool");
        assertThat(refused.httpStatus()).isEqualTo(502);
    }

    @Test
    void twoAccountsMappingTheSameModelToDifferentUpstreamNamesAreChargedUnderTheirOwnKeys() {
        PoolView view = view(
                List.of(
                        cred("a").maps("sol", "up-a").paused("up-b").build(),
                        cred("b")
                                .maps("sol", "up-b")
                                .paused("up-a")
                                .manualWeight(1)
                                .build()),
                group("g1").build());
        RouteResult.Selected first = selected(route(view, KEY, "sol", Set.of()));
        RouteResult.Selected second =
                selected(route(view, KEY, "sol", Set.of(first.credential().credentialId())));
        assertThat(List.of(first, second))
                .extracting(s -> s.credential().credentialId() + "->" + s.modelKey())
                .containsExactlyInAnyOrder("a->up-a", "b->up-b");
    }

    @Test
    void selectionNeverReturnsAnAlreadyTriedCredentialButCanFallBackToAnotherCoolingOne() {
        PoolView view = view(
                List.of(
                        cred("a").serves("m").build(),
                        cred("b").serves("m").accountCooling(in(30)).build()),
                group("g1").build());
        RouteResult.Selected selected = selected(route(view, KEY, "m", Set.of("a")));
        assertThat(selected.credential().credentialId()).isEqualTo("b");
        assertThat(selected.fromCoolingFallback()).isTrue();
    }

    @Test
    void largeExclusionSetsAreHonouredToo() {
        List<CredentialSnapshot> pool = new java.util.ArrayList<>();
        Set<String> excluded = new java.util.HashSet<>();
        for (int i = 0; i < 30; i++) {
            String id = String.format("c%02d", i);
            pool.add(cred(id).serves("m").build());
            if (i % 10 != 7) {
                excluded.add(id);
            }
        }
        PoolView view = view(pool, group("g1").build());
        for (int seed = 0; seed < 50; seed++) {
            RouteResult.Selected selected = selected(Router.route(
                    view,
                    new RouteRequest(KEY, Protocol.OPENAI_CHAT, "m", null),
                    excluded,
                    null,
                    new SplittableRandom(seed),
                    NOW,
                    false));
            assertThat(selected.credential().credentialId()).isIn("c07", "c17", "c27");
        }
        excluded.addAll(Set.of("c07", "c17", "c27"));
        assertThat(refused(route(view, KEY, "m", excluded)).code()).isEqualTo(ReasonCode.NO_AVAILABLE_CREDENTIAL);
    }

    @Test
    void refusalCarriesEarliestRecoveryWhenTheTriedCredentialsAreCooling() {
        PoolView view = view(
                List.of(
                        cred("a").serves("m").accountCooling(in(40)).build(),
                        cred("b").serves("m").modelCooling("m", in(25)).build(),
                        cred("c").serves("m").paused("m").build()),
                group("g1").build());
        RouteResult.Refused refused = refused(route(view, KEY, "m", Set.of("a", "b")));
        assertThat(refused.code()).isEqualTo(ReasonCode.NO_AVAILABLE_CREDENTIAL);
        assertThat(refused.earliestRecoveryAt()).isEqualTo(in(25));
        RouteResult.Refused paused = refused(route(
                view(
                        List.of(cred("c").serves("m").paused("m").build()),
                        group("g1").build()),
                "m"));
        assertThat(paused.earliestRecoveryAt()).isNull();
    }

    @Test
    void aCoolingGroupOutranksAGroupWhoseModelIsPausedInEveryFailoverOrder() {
        // issue 34: g1's only account has the model paused, g2's answered 429 in this request and
        // cools; the pause is the user's will and never lifts by itself, the 429 does: the client
        // is told to retry later, not to clear a pause that is not the reason it failed
        AccessKeySnapshot key = key("k").groups("g1", "g2").build();
        PoolView view = PoolView.of(
                List.of(
                        cred("paused").serves("m").groups("g1").paused("m").build(),
                        cred("throttled")
                                .serves("m")
                                .groups("g2")
                                .modelCooling("m", in(30))
                                .build()),
                List.of(group("g1").build(), group("g2").build()),
                List.of(key));
        for (int seed = 0; seed < 20; seed++) {
            RouteResult result = Router.route(
                    view,
                    new RouteRequest(key, Protocol.OPENAI_CHAT, "m", null),
                    Set.of("throttled"),
                    null,
                    new SplittableRandom(seed),
                    NOW,
                    true);
            RouteResult.Refused refused = refused(result);
            assertThat(refused.code()).isEqualTo(ReasonCode.NO_AVAILABLE_CREDENTIAL);
            assertThat(refused.httpStatus()).isEqualTo(502);
            assertThat(refused.earliestRecoveryAt()).isEqualTo(in(30));
            assertThat(result.trace().outcome())
                    .as("route check names the code the gateway answers with")
                    .isEqualTo(ReasonCode.NO_AVAILABLE_CREDENTIAL);
        }
    }

    @Test
    void archivedCredentialBelongsToNoGroup() {
        PoolView view = view(
                List.of(cred("a").serves("m").archived().build()),
                group("g1").exposes("m").build());
        assertThat(refused(route(view, "m")).code()).isEqualTo(ReasonCode.NO_CREDENTIALS);
        assertThat(view.credential("a")).isPresent();
    }

    // ---- chooser ---------------------------------------------------------------------------

    @Test
    void lowestPriorityNumberTierIsUsedFirst() {
        PoolView view = view(
                List.of(
                        cred("low").serves("m").priority(2).build(),
                        cred("top1").serves("m").priority(0).build(),
                        cred("top2").serves("m").priority(0).build(),
                        cred("mid").serves("m").priority(1).build()),
                group("g1").build());
        RandomGenerator rng = new SplittableRandom(1);
        for (int i = 0; i < 200; i++) {
            RouteResult.Selected selected = selected(Router.route(
                    view, new RouteRequest(KEY, Protocol.OPENAI_CHAT, "m", null), Set.of(), null, rng, NOW, false));
            assertThat(selected.credential().credentialId()).isIn("top1", "top2");
        }
    }

    @Test
    void nextTierOnlyWhenTheLowerTierHasNothingEligible() {
        PoolView view = view(
                List.of(
                        cred("top")
                                .serves("m")
                                .priority(0)
                                .accountCooling(in(5))
                                .build(),
                        cred("mid").serves("m").priority(1).build(),
                        cred("low").serves("m").priority(2).build()),
                group("g1").build());
        assertThat(selected(route(view, "m")).credential().credentialId()).isEqualTo("mid");
        assertThat(selected(route(view, KEY, "m", Set.of("mid"))).credential().credentialId())
                .isEqualTo("low");
    }

    @Test
    void weightedRandomDistributionFollowsManualWeights() {
        PoolView view = view(
                List.of(
                        cred("w10").serves("m").manualWeight(10).build(),
                        cred("w30").serves("m").manualWeight(30).build(),
                        cred("w60").serves("m").manualWeight(60).build()),
                group("g1").build());
        RandomGenerator rng = new SplittableRandom(42);
        int[] counts = new int[3];
        RouteRequest request = new RouteRequest(KEY, Protocol.OPENAI_CHAT, "m", null);
        for (int i = 0; i < 10_000; i++) {
            String id = selected(Router.route(view, request, Set.of(), null, rng, NOW, false))
                    .credential()
                    .credentialId();
            counts[id.equals("w10") ? 0 : id.equals("w30") ? 1 : 2]++;
        }
        assertThat(counts[0]).isBetween(850, 1150);
        assertThat(counts[1]).isBetween(2750, 3250);
        assertThat(counts[2]).isBetween(5700, 6300);
    }

    @Test
    void weightedDrawIsConditionedOnEligibilityInsideTheTier() {
        PoolView view = view(
                List.of(
                        cred("w10").serves("m").manualWeight(10).build(),
                        cred("w30")
                                .serves("m")
                                .manualWeight(30)
                                .accountCooling(in(60))
                                .build(),
                        cred("w60").serves("m").manualWeight(60).build()),
                group("g1").build());
        RandomGenerator rng = new SplittableRandom(4);
        RouteRequest request = new RouteRequest(KEY, Protocol.OPENAI_CHAT, "m", null);
        int w10 = 0;
        for (int i = 0; i < 7_000; i++) {
            String id = selected(Router.route(view, request, Set.of(), null, rng, NOW, false))
                    .credential()
                    .credentialId();
            assertThat(id).isNotEqualTo("w30");
            if (id.equals("w10")) {
                w10++;
            }
        }
        assertThat(w10).isBetween(850, 1150); // 10 / (10 + 60) of 7,000 = 1,000
    }

    @Test
    void mostlyIneligibleTierFallsBackToTheExactWalk() {
        List<CredentialSnapshot> pool = new java.util.ArrayList<>();
        for (int i = 0; i < 40; i++) {
            pool.add(cred(String.format("cool-%02d", i))
                    .serves("m")
                    .manualWeight(100)
                    .accountCooling(in(30))
                    .build());
        }
        pool.add(cred("a").serves("m").manualWeight(1).build());
        pool.add(cred("b").serves("m").manualWeight(3).build());
        PoolView view = view(pool, group("g1").build());
        RandomGenerator rng = new SplittableRandom(8);
        RouteRequest request = new RouteRequest(KEY, Protocol.OPENAI_CHAT, "m", null);
        int b = 0;
        for (int i = 0; i < 4_000; i++) {
            String id = selected(Router.route(view, request, Set.of("x"), null, rng, NOW, false))
                    .credential()
                    .credentialId();
            assertThat(id).isIn("a", "b");
            if (id.equals("b")) {
                b++;
            }
        }
        assertThat(b).isBetween(2800, 3200); // 3 / 4
    }

    @Test
    void automaticWeightComesFromRecentSuccessesAndFailures() {
        PoolView view = view(
                        List.of(
                                cred("good").serves("m").build(),
                                cred("bad").serves("m").build()),
                        group("g1").build())
                .withStats(java.util.Map.of(
                        "good", new CredentialStats(98, 0),
                        "bad", new CredentialStats(0, 98)));
        assertThat(view.effectiveWeight("good")).isEqualTo(99);
        assertThat(view.effectiveWeight("bad")).isEqualTo(1);
        RandomGenerator rng = new SplittableRandom(3);
        int good = 0;
        RouteRequest request = new RouteRequest(KEY, Protocol.OPENAI_CHAT, "m", null);
        for (int i = 0; i < 5_000; i++) {
            if (selected(Router.route(view, request, Set.of(), null, rng, NOW, false))
                    .credential()
                    .credentialId()
                    .equals("good")) {
                good++;
            }
        }
        assertThat(good).isBetween(4850, 5000);
    }

    @Test
    void singleEligibleCandidateDrawsNoRandomNumber() {
        PoolView view = view(List.of(cred("a").serves("m").build()), group("g1").build());
        RandomGenerator failing = () -> {
            throw new AssertionError("no draw expected");
        };
        assertThat(selected(Router.route(
                                view,
                                new RouteRequest(KEY, Protocol.OPENAI_CHAT, "m", null),
                                Set.of(),
                                null,
                                failing,
                                NOW,
                                false))
                        .credential()
                        .credentialId())
                .isEqualTo("a");
    }

    // ---- affinity ----------------------------------------------------------------------------

    private static final AffinityKey AFFINITY = Affinity.key("k", Protocol.OPENAI_CHAT, "You are a helpful bot");

    private static RouteResult routeWithAffinity(PoolView view, AffinityTable table, Set<String> tried) {
        return Router.route(
                view,
                new RouteRequest(KEY, Protocol.OPENAI_CHAT, "m", AFFINITY),
                tried,
                table,
                new SplittableRandom(11),
                NOW,
                false);
    }

    @Test
    void affinityHitPrefersTheRememberedCredentialEvenInAHigherTier() {
        PoolView view = view(
                List.of(
                        cred("a").serves("m").priority(0).build(),
                        cred("b").serves("m").priority(5).build()),
                group("g1").affinity().build());
        AffinityTable table = new AffinityTable();
        table.remember(AFFINITY, "g1", "b", NOW.minusSeconds(5));
        RouteResult.Selected selected = selected(routeWithAffinity(view, table, Set.of()));
        assertThat(selected.credential().credentialId()).isEqualTo("b");
        assertThat(selected.affinityHit()).isTrue();
    }

    @Test
    void affinityIsSkippedWhenTheRememberedCredentialIsCoolingBlacklistedOrTried() {
        AffinityTable table = new AffinityTable();
        table.remember(AFFINITY, "g1", "b", NOW.minusSeconds(5));
        for (CredentialSnapshot b : List.of(
                cred("b").serves("m").accountCooling(in(10)).build(),
                cred("b").serves("m").modelCooling("m", in(10)).build(),
                cred("b")
                        .serves("m")
                        .status(io.routegateway.core.state.AccountStatus.ERROR)
                        .build(),
                cred("b").serves("m").paused("m").build())) {
            PoolView view = view(
                    List.of(cred("a").serves("m").build(), b),
                    group("g1").affinity().build());
            RouteResult.Selected selected = selected(routeWithAffinity(view, table, Set.of()));
            assertThat(selected.credential().credentialId()).isEqualTo("a");
            assertThat(selected.affinityHit()).isFalse();
        }
        PoolView healthy = view(
                List.of(cred("a").serves("m").build(), cred("b").serves("m").build()),
                group("g1").affinity().build());
        assertThat(selected(routeWithAffinity(healthy, table, Set.of("b"))).affinityHit())
                .isFalse();
    }

    @Test
    void affinityIsIgnoredWhenTheGroupHasItDisabled() {
        PoolView view = view(
                List.of(
                        cred("a").serves("m").priority(0).build(),
                        cred("b").serves("m").priority(5).build()),
                group("g1").build());
        AffinityTable table = new AffinityTable();
        table.remember(AFFINITY, "g1", "b", NOW);
        RouteResult.Selected selected = selected(routeWithAffinity(view, table, Set.of()));
        assertThat(selected.credential().credentialId()).isEqualTo("a");
        RouteRequest request =
                new RouteRequest(KEY, Protocol.OPENAI_CHAT, "m", Affinity.key("k", Protocol.GEMINI, "x"));
        Router.rememberSuccess(table, request, selected, NOW);
        assertThat(table.size()).isEqualTo(1);
    }

    @Test
    void successIsRememberedAndThenPreferred() {
        PoolView view = view(
                List.of(
                        cred("a").serves("m").manualWeight(1).build(),
                        cred("b").serves("m").manualWeight(1).build(),
                        cred("c").serves("m").manualWeight(1).build()),
                group("g1").affinity().build());
        AffinityTable table = new AffinityTable();
        RouteRequest request = new RouteRequest(KEY, Protocol.OPENAI_CHAT, "m", AFFINITY);
        RouteResult.Selected first = selected(routeWithAffinity(view, table, Set.of()));
        assertThat(first.affinityHit()).isFalse();
        Router.rememberSuccess(table, request, first, NOW);
        for (int i = 0; i < 20; i++) {
            RouteResult.Selected next = selected(
                    Router.route(view, request, Set.of(), table, new SplittableRandom(i), NOW.plusSeconds(i), false));
            assertThat(next.credential().credentialId())
                    .isEqualTo(first.credential().credentialId());
            assertThat(next.affinityHit()).isTrue();
        }
    }

    @Test
    void aRememberedGroupWithoutAWorkingCredentialStillFailsOverToTheKeysOtherGroups() {
        AccessKeySnapshot key = key("k").groups("g1", "g2", "g3").build();
        PoolView view = PoolView.of(
                List.of(
                        cred("a").serves("m").groups("g1").build(),
                        cred("b")
                                .serves("m")
                                .groups("g2")
                                .accountCooling(in(20))
                                .build(),
                        cred("c").serves("m").groups("g3").build()),
                List.of(
                        group("g1").affinity().build(),
                        group("g2").affinity().build(),
                        group("g3").affinity().build()),
                List.of(key));
        AffinityTable table = new AffinityTable();
        table.remember(AFFINITY, "g2", "b", NOW);
        Set<String> served = new HashSet<>();
        for (int seed = 0; seed < 20; seed++) {
            RouteResult.Selected selected = selected(Router.route(
                    view,
                    new RouteRequest(key, Protocol.OPENAI_CHAT, "m", AFFINITY),
                    Set.of(),
                    table,
                    new SplittableRandom(seed),
                    NOW,
                    false));
            assertThat(selected.fromCoolingFallback())
                    .as("the remembered group goes first, the others stay in the failover order")
                    .isFalse();
            served.add(selected.credential().credentialId());
        }
        assertThat(served).containsExactlyInAnyOrder("a", "c");
    }

    @Test
    void affinityGroupIsTriedFirst() {
        AccessKeySnapshot key = key("k").groups("g1", "g2").build();
        PoolView view = PoolView.of(
                List.of(
                        cred("a").serves("m").groups("g1").build(),
                        cred("b").serves("m").groups("g2").build()),
                List.of(group("g1").affinity().build(), group("g2").affinity().build()),
                List.of(key));
        AffinityTable table = new AffinityTable();
        table.remember(AFFINITY, "g2", "b", NOW);
        for (int seed = 0; seed < 20; seed++) {
            RouteResult.Selected selected = selected(Router.route(
                    view,
                    new RouteRequest(key, Protocol.OPENAI_CHAT, "m", AFFINITY),
                    Set.of(),
                    table,
                    new SplittableRandom(seed),
                    NOW,
                    false));
            assertThat(selected.group().groupId()).isEqualTo("g2");
            assertThat(selected.affinityHit()).isTrue();
        }
    }

    // ---- view ------------------------------------------------------------------------------

    @Test
    void withReplacesOneCredentialsStateWithoutLosingTheIndex() {
        PoolView view = view(
                List.of(cred("a").serves("m").build(), cred("b").serves("m").build()),
                group("g1").build());
        assertThat(route(view, "m")).isInstanceOf(RouteResult.Selected.class);
        PoolView cooled = view.with(
                cred("a").serves("m").accountCooling(in(60)).version(2).build());
        for (int i = 0; i < 20; i++) {
            assertThat(selected(Router.route(
                                    cooled,
                                    new RouteRequest(KEY, Protocol.OPENAI_CHAT, "m", null),
                                    Set.of(),
                                    null,
                                    new SplittableRandom(i),
                                    NOW,
                                    false))
                            .credential()
                            .credentialId())
                    .isEqualTo("b");
        }
        PoolView disabled =
                cooled.with(cred("b").serves("m").disabled().version(2).build());
        RouteResult.Selected fallback = selected(route(disabled, "m"));
        assertThat(fallback.credential().credentialId()).isEqualTo("a");
        assertThat(fallback.fromCoolingFallback()).isTrue();
        assertThat(route(view, "m")).isInstanceOf(RouteResult.Selected.class);
    }

    @Test
    void withIfNewerIgnoresStaleVersionsAndWithoutCredentialRemoves() {
        PoolView view = view(
                List.of(cred("a").serves("m").version(5).build()),
                group("g1").exposes("m").build());
        assertThat(view.withIfNewer(cred("a").serves("m").disabled().version(5).build()))
                .isSameAs(view);
        assertThat(view.withIfNewer(cred("a").serves("m").disabled().version(6).build())
                        .credential("a")
                        .orElseThrow()
                        .enabled())
                .isFalse();
        assertThat(refused(route(view.withoutCredential("a"), "m")).code()).isEqualTo(ReasonCode.NO_CREDENTIALS);
    }

    @Test
    void authenticateFindsTheKeyByTheHashOfThePlaintext() {
        PoolView view = view(List.of(), group("g1").build());
        assertThat(view.authenticate(Fixtures.Key.plaintext("k"))).contains(KEY);
        assertThat(view.authenticate("rk-k-secreT")).isEmpty();
        assertThat(view.authenticate(null)).isEmpty();
        assertThat(view.accessKeyByHash(KEY.keyHash().toUpperCase())).contains(KEY);
        RouteResult.Refused refused = refused(Router.route(
                view,
                new RouteRequest(view.authenticate("nope").orElse(null), Protocol.OPENAI_CHAT, "m", null),
                Set.of(),
                null,
                new SplittableRandom(1),
                NOW,
                false));
        assertThat(refused.code()).isEqualTo(ReasonCode.INVALID_ACCESS_KEY);
        assertThat(refused.httpStatus()).isEqualTo(401);
    }

    @Test
    void routerAppliesTheAccessDecisionFirst() {
        AccessKeySnapshot restricted = key("k").models("glm-*").build();
        PoolView view = PoolView.of(
                List.of(cred("a").serves("m").build()), List.of(group("g1").build()), List.of(restricted));
        assertThat(refused(route(view, restricted, "m", Set.of())).code()).isEqualTo(ReasonCode.MODEL_FILTERED);
        assertThat(refused(route(view, restricted, null, Set.of())).code())
                .isEqualTo(ReasonCode.MODEL_REQUIRED_BY_FILTER);
    }

    // ---- models listing --------------------------------------------------------------------

    @Test
    void modelsListingIncludesPausedModelsAndCoolingAccounts() {
        AccessKeySnapshot key = key("k").groups("g1", "g2", "g3").build();
        PoolView view = PoolView.of(
                List.of(
                        cred("a")
                                .serves("glm-5.3", "gpt-5.6-sol")
                                .paused("gpt-5.6-sol")
                                .groups("g1")
                                .build(),
                        cred("b")
                                .maps("alias", "upstream")
                                .maps("*", "fallback")
                                .accountCooling(in(60))
                                .groups("g1")
                                .build(),
                        cred("c").serves("hidden").disabled().groups("g1").build(),
                        cred("d").serves("off").groups("g3").build()),
                List.of(
                        group("g1").build(),
                        group("g2").exposes("exposed-only").build(),
                        group("g3").disabled().build()),
                List.of(key));
        assertThat(view.modelsFor(key)).containsExactly("alias", "exposed-only", "glm-5.3", "gpt-5.6-sol");
    }

    @Test
    void modelsListingHonoursTheKeysModelRestrictionAndOfficialBaselines() {
        AccessKeySnapshot key = key("k").models("claude-opus*").build();
        PoolView view = PoolView.of(
                List.of(cred("o")
                        .official(io.routegateway.core.model.Platform.CLAUDE)
                        .build()),
                List.of(group("g1").build()),
                List.of(key));
        assertThat(view.modelsFor(key)).containsExactly("claude-opus-4-1", "claude-opus-4-5");
    }
}
