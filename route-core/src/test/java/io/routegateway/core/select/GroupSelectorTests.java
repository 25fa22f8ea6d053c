package io.routegateway.core.select;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

import io.routegateway.core.event.AccessKeySnapshot;
import io.routegateway.core.event.CredentialSnapshot;
import io.routegateway.core.event.GroupSnapshot;
import io.routegateway.core.model.Protocol;
import org.junit.jupiter.api.Test;

import static io.routegateway.core.select.Fixtures.NOW;
import static io.routegateway.core.select.Fixtures.cred;
import static io.routegateway.core.select.Fixtures.group;
import static io.routegateway.core.select.Fixtures.in;
import static io.routegateway.core.select.Fixtures.key;
import static org.assertj.core.api.Assertions.assertThat;

class GroupSelectorTests {

    private static RouteResult route(PoolView view, AccessKeySnapshot key, String model, long seed) {
        return Router.route(
                view,
                new RouteRequest(key, Protocol.OPENAI_CHAT, model, null),
                Set.of(),
                null,
                new SplittableRandom(seed),
                NOW,
                false);
    }

    private static ReasonCode refusal(PoolView view, AccessKeySnapshot key, String model) {
        RouteResult result = route(view, key, model, 1);
        assertThat(result).isInstanceOf(RouteResult.Refused.class);
        return ((RouteResult.Refused) result).code();
    }

    private static PoolView view(AccessKeySnapshot key, List<CredentialSnapshot> credentials, GroupSnapshot... groups) {
        return PoolView.of(credentials, List.of(groups), List.of(key));
    }

    @Test
    void keyAuthorizingNoGroupIsNoRouteTarget() {
        AccessKeySnapshot none = key("k").groups().build();
        assertThat(refusal(
                        view(
                                none,
                                List.of(cred("a").serves("m").build()),
                                group("g1").build()),
                        none,
                        "m"))
                .isEqualTo(ReasonCode.NO_ROUTE_TARGET);
        AccessKeySnapshot missing = key("k").groups("gone").build();
        assertThat(refusal(
                        view(
                                missing,
                                List.of(cred("a").serves("m").build()),
                                group("g1").build()),
                        missing,
                        "m"))
                .isEqualTo(ReasonCode.NO_ROUTE_TARGET);
    }

    @Test
    void disabledGroupIsGroupDisabled() {
        AccessKeySnapshot key = key("k").build();
        PoolView view = view(
                key,
                List.of(cred("a").serves("m").build()),
                group("g1").disabled().build());
        assertThat(refusal(view, key, "m")).isEqualTo(ReasonCode.GROUP_DISABLED);
        assertThat(GroupSelector.candidates(view, key, "m").refusal()).isEqualTo(ReasonCode.GROUP_DISABLED);
    }

    @Test
    void groupNotExposingTheModelIsNoAvailableGroup() {
        AccessKeySnapshot key = key("k").build();
        PoolView listed = view(
                key,
                List.of(cred("a").serves("m", "x").build()),
                group("g1").exposes("x").build());
        assertThat(refusal(listed, key, "m")).isEqualTo(ReasonCode.NO_AVAILABLE_GROUP);
        PoolView served =
                view(key, List.of(cred("a").serves("x").build()), group("g1").build());
        assertThat(refusal(served, key, "m")).isEqualTo(ReasonCode.NO_AVAILABLE_GROUP);
    }

    @Test
    void emptyExposedListMeansAnyModelItsCredentialsServeHealthIgnored() {
        AccessKeySnapshot key = key("k").build();
        PoolView view = view(
                key,
                List.of(cred("a").serves("m").disabled().build()),
                group("g1").build());
        assertThat(GroupSelector.candidates(view, key, "m").groups()).hasSize(1);
        assertThat(refusal(view, key, "m")).isEqualTo(ReasonCode.NO_ENABLED_CREDENTIALS);
    }

    @Test
    void legacyGroupWeightZeroIsGroupWeightZero() {
        AccessKeySnapshot key = key("k").build();
        PoolView view = view(
                key,
                List.of(cred("a").serves("m").build()),
                group("g1").manualWeight(0).build());
        assertThat(refusal(view, key, "m")).isEqualTo(ReasonCode.GROUP_WEIGHT_ZERO);
    }

    @Test
    void exposedGroupWithoutAnyCredentialIsNoCredentials() {
        AccessKeySnapshot key = key("k").build();
        PoolView view = view(key, List.of(), group("g1").exposes("m").build());
        assertThat(refusal(view, key, "m")).isEqualTo(ReasonCode.NO_CREDENTIALS);
    }

    @Test
    void groupOutsideTheKeysScopeIsNeverUsedAndTracedAsGroupFiltered() {
        AccessKeySnapshot key = key("k").groups("g1").build();
        PoolView view = view(
                key,
                List.of(cred("a").serves("m").groups("g2").build()),
                group("g1").exposes("m").build(),
                group("g2").build());
        RouteResult result = Router.route(
                view,
                new RouteRequest(key, Protocol.OPENAI_CHAT, "m", null),
                Set.of(),
                null,
                new SplittableRandom(1),
                NOW,
                true);
        assertThat(((RouteResult.Refused) result).code()).isEqualTo(ReasonCode.NO_CREDENTIALS);
        assertThat(result.trace().groups())
                .filteredOn(g -> g.groupId().equals("g2"))
                .singleElement()
                .satisfies(g -> assertThat(g.reason()).isEqualTo(ReasonCode.GROUP_FILTERED));
    }

    @Test
    void refusalPrefersTheReasonOfGroupsThatExposeTheModel() {
        AccessKeySnapshot key = key("k").groups("g1", "g2").build();
        PoolView disabledExposing = view(
                key,
                List.of(
                        cred("a").serves("m").groups("g1").build(),
                        cred("b").serves("x").groups("g2").build()),
                group("g1").disabled().build(),
                group("g2").build());
        assertThat(refusal(disabledExposing, key, "m")).isEqualTo(ReasonCode.GROUP_DISABLED);
        PoolView weightZeroExposing = view(
                key,
                List.of(cred("a").serves("m").groups("g1", "g2").build()),
                group("g1").disabled().build(),
                group("g2").manualWeight(0).build());
        assertThat(refusal(weightZeroExposing, key, "m")).isEqualTo(ReasonCode.GROUP_WEIGHT_ZERO);
    }

    @Test
    void groupWithoutWorkingCredentialFailsOverToTheNextGroup() {
        AccessKeySnapshot key = key("k").groups("g1", "g2").build();
        PoolView view = view(
                key,
                List.of(
                        cred("a").serves("m").paused("m").groups("g1").build(),
                        cred("b").serves("m").groups("g2").build()),
                group("g1").build(),
                group("g2").build());
        for (int seed = 0; seed < 30; seed++) {
            RouteResult result = route(view, key, "m", seed);
            assertThat(((RouteResult.Selected) result).group().groupId()).isEqualTo("g2");
        }
    }

    @Test
    void finalRefusalIsTheHighestRankedCodeAcrossGroups() {
        AccessKeySnapshot key = key("k").groups("g1", "g2", "g3").build();
        PoolView view = view(
                key,
                List.of(
                        cred("a").serves("m").groups("g1").build(),
                        cred("b").serves("m").paused("m").groups("g2").build(),
                        cred("c").serves("x").groups("g3").build()),
                group("g1").build(),
                group("g2").build(),
                group("g3").exposes("m").build());
        for (int seed = 0; seed < 20; seed++) {
            RouteResult result = Router.route(
                    view,
                    new RouteRequest(key, Protocol.OPENAI_CHAT, "m", null),
                    Set.of("a"),
                    null,
                    new SplittableRandom(seed),
                    NOW,
                    false);
            assertThat(((RouteResult.Refused) result).code())
                    .as("a tried credential outranks a pause and a missing mapping: it is the one that comes back")
                    .isEqualTo(ReasonCode.NO_AVAILABLE_CREDENTIAL);
            RouteResult withoutTheTriedGroup = Router.route(
                    view,
                    new RouteRequest(key("k").groups("g2", "g3").build(), Protocol.OPENAI_CHAT, "m", null),
                    Set.of("a"),
                    null,
                    new SplittableRandom(seed),
                    NOW,
                    false);
            assertThat(((RouteResult.Refused) withoutTheTriedGroup).code()).isEqualTo(ReasonCode.MODEL_UNAVAILABLE);
        }
    }

    @Test
    void aGroupWhoseOnlyCredentialIsCoolingFailsOverBeforeTheCoolingFallback() {
        AccessKeySnapshot key = key("k").groups("g1", "g2").build();
        PoolView view = view(
                key,
                List.of(
                        cred("a").serves("m").accountCooling(in(5)).groups("g1").build(),
                        cred("b").serves("m").groups("g2").build()),
                // the cooling group is drawn first 100 times out of 101
                group("g1").manualWeight(100).build(),
                group("g2").manualWeight(1).build());
        for (int seed = 0; seed < 60; seed++) {
            RouteResult.Selected selected = (RouteResult.Selected) route(view, key, "m", seed);
            assertThat(selected.group().groupId()).isEqualTo("g2");
            assertThat(selected.credential().credentialId()).isEqualTo("b");
            assertThat(selected.fromCoolingFallback()).isFalse();
        }
    }

    @Test
    void withEveryGroupCoolingTheSoonestRecoveringCredentialOfAnyGroupIsTheProbe() {
        AccessKeySnapshot key = key("k").groups("g1", "g2").build();
        PoolView view = view(
                key,
                List.of(
                        cred("a")
                                .serves("m")
                                .accountCooling(in(30))
                                .groups("g1")
                                .build(),
                        cred("b").serves("m").accountCooling(in(5)).groups("g2").build()),
                group("g1").manualWeight(100).build(),
                group("g2").manualWeight(1).build());
        for (int seed = 0; seed < 30; seed++) {
            RouteResult.Selected selected = (RouteResult.Selected) route(view, key, "m", seed);
            assertThat(selected.credential().credentialId()).isEqualTo("b");
            assertThat(selected.fromCoolingFallback()).isTrue();
            assertThat(selected.recoveryAt()).isEqualTo(in(5));
        }
    }

    @Test
    void aSingleCoolingGroupStillGetsTheProbe() {
        AccessKeySnapshot key = key("k").groups("g1").build();
        PoolView view = view(
                key,
                List.of(cred("a").serves("m").accountCooling(in(5)).build()),
                group("g1").build());
        assertThat(((RouteResult.Selected) route(view, key, "m", 1)).fromCoolingFallback())
                .isTrue();
    }

    @Test
    void onceTheProbeIsSpentACoolingPoolIsNoAvailableCredentialWithItsRecoveryTime() {
        AccessKeySnapshot key = key("k").groups("g1", "g2").build();
        PoolView view = view(
                key,
                List.of(
                        cred("a")
                                .serves("m")
                                .accountCooling(in(30))
                                .groups("g1")
                                .build(),
                        cred("b").serves("m").accountCooling(in(5)).groups("g2").build()),
                group("g1").build(),
                group("g2").build());
        RouteResult result = Router.route(
                view,
                new RouteRequest(key, Protocol.OPENAI_CHAT, "m", null),
                Set.of("b"),
                false,
                null,
                new SplittableRandom(1),
                NOW,
                true);
        assertThat(result).isInstanceOfSatisfying(RouteResult.Refused.class, refused -> {
            assertThat(refused.code()).isEqualTo(ReasonCode.NO_AVAILABLE_CREDENTIAL);
            assertThat(refused.earliestRecoveryAt()).isEqualTo(in(5));
        });
    }

    @Test
    void failoverOrderIsAWeightedRandomPermutation() {
        GroupSnapshot heavy = group("heavy").manualWeight(75).build();
        GroupSnapshot light = group("light").manualWeight(25).build();
        GroupSnapshot auto = group("auto").build();
        SplittableRandom rng = new SplittableRandom(5);
        Map<String, Integer> first = new HashMap<>();
        for (int i = 0; i < 8_000; i++) {
            List<GroupSnapshot> order = GroupSelector.failoverOrder(List.of(heavy, light, auto), rng);
            assertThat(order).containsExactlyInAnyOrder(heavy, light, auto);
            first.merge(order.get(0).groupId(), 1, Integer::sum);
        }
        // weights 75 : 25 : 100 (auto = default weight)
        assertThat(first.get("heavy")).isBetween(2700, 3300);
        assertThat(first.get("light")).isBetween(800, 1200);
        assertThat(first.get("auto")).isBetween(3700, 4300);
    }

    @Test
    void singleGroupFailoverOrderDrawsNothing() {
        GroupSnapshot only = group("g1").build();
        assertThat(GroupSelector.failoverOrder(List.of(only), () -> {
                    throw new AssertionError("no draw expected");
                }))
                .containsExactly(only);
    }

    @Test
    void requestWithoutModelSkipsExposure() {
        AccessKeySnapshot key = key("k").build();
        PoolView view = view(
                key,
                List.of(cred("a").serves("x").build()),
                group("g1").exposes("y").build());
        assertThat(route(view, key, null, 1)).isInstanceOf(RouteResult.Selected.class);
    }

    @Test
    void exposedListMatchesTheOneMStrippedName() {
        AccessKeySnapshot key = key("k").build();
        PoolView view = view(
                key,
                List.of(cred("a").build()),
                group("g1").exposes("claude-sonnet-4-5").build());
        RouteResult.Selected selected = (RouteResult.Selected) route(view, key, "claude-sonnet-4-5[1m]", 1);
        assertThat(selected.modelKey()).isEqualTo("claude-sonnet-4-5");
        assertThat(selected.upstreamModel()).isEqualTo("claude-sonnet-4-5[1m]");
    }
}
