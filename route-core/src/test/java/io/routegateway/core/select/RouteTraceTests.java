package io.routegateway.core.select;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.Function;
import java.util.stream.Collectors;

import io.routegateway.core.event.AccessKeySnapshot;
import io.routegateway.core.model.CredentialKind;
import io.routegateway.core.model.Platform;
import io.routegateway.core.model.Protocol;
import io.routegateway.core.state.AccountStatus;
import org.junit.jupiter.api.Test;

import static io.routegateway.core.select.Fixtures.NOW;
import static io.routegateway.core.select.Fixtures.cred;
import static io.routegateway.core.select.Fixtures.group;
import static io.routegateway.core.select.Fixtures.in;
import static io.routegateway.core.select.Fixtures.key;
import static org.assertj.core.api.Assertions.assertThat;

class RouteTraceTests {

    @Test
    void traceSaysPerGroupAndPerCredentialWhetherKeptOrDroppedAndWhy() {
        AccessKeySnapshot key = key("k").groups("g0", "g1", "missing").build();
        PoolView view = PoolView.of(
                List.of(
                        cred("disabled").serves("m").disabled().build(),
                        cred("revoked")
                                .official(Platform.CLAUDE)
                                .status(AccountStatus.REVOKED)
                                .build(),
                        cred("platform")
                                .platform(Platform.OPENAI)
                                .kind(CredentialKind.OFFICIAL)
                                .build(),
                        cred("unmatched").serves("x").build(),
                        cred("tried").serves("m").build(),
                        cred("zero").serves("m").manualWeight(0).build(),
                        cred("paused").serves("m").paused("m").build(),
                        cred("cooling").serves("m").accountCooling(in(30)).build(),
                        cred("ok").serves("m").build(),
                        cred("other").serves("m").groups("g2").build()),
                List.of(
                        group("g0").disabled().build(),
                        group("g1").build(),
                        group("g2").build()),
                List.of(key));
        RouteResult result = Router.route(
                view,
                new RouteRequest(key, Protocol.OPENAI_CHAT, "m", null),
                Set.of("tried"),
                null,
                new SplittableRandom(1),
                NOW,
                true);
        assertThat(result).isInstanceOf(RouteResult.Selected.class);
        RouteTrace trace = result.trace();
        assertThat(trace.accessRefusal()).isNull();
        assertThat(trace.outcome()).isNull();

        Map<String, RouteTrace.GroupTrace> groups =
                trace.groups().stream().collect(Collectors.toMap(RouteTrace.GroupTrace::groupId, Function.identity()));
        assertThat(trace.groups())
                .extracting(RouteTrace.GroupTrace::groupId)
                .containsExactly("g0", "g1", "missing", "g2");
        assertThat(groups.get("g0").reason()).isEqualTo(ReasonCode.GROUP_DISABLED);
        assertThat(groups.get("missing").reason()).isEqualTo(ReasonCode.NO_ROUTE_TARGET);
        assertThat(groups.get("g2").reason()).isEqualTo(ReasonCode.GROUP_FILTERED);
        RouteTrace.GroupTrace g1 = groups.get("g1");
        assertThat(g1.verdict()).isEqualTo(RouteTrace.Verdict.SELECTED);
        assertThat(g1.failoverPosition()).isZero();

        Map<String, RouteTrace.CredentialTrace> creds = g1.credentials().stream()
                .collect(Collectors.toMap(RouteTrace.CredentialTrace::credentialId, Function.identity()));
        assertThat(creds).doesNotContainKey("other");
        assertThat(creds.get("disabled"))
                .extracting(c -> c.step(), c -> c.verdict(), c -> c.reason())
                .containsExactly(1, RouteTrace.Verdict.DROPPED, ReasonCode.CREDENTIAL_DISABLED);
        assertThat(creds.get("revoked").reason()).isEqualTo(ReasonCode.CREDENTIAL_AUTH_UNAVAILABLE);
        assertThat(creds.get("platform"))
                .extracting(c -> c.step(), c -> c.reason())
                .containsExactly(2, ReasonCode.NO_ENABLED_CREDENTIALS);
        assertThat(creds.get("unmatched"))
                .extracting(c -> c.step(), c -> c.reason())
                .containsExactly(3, ReasonCode.MODEL_UNMATCHED);
        assertThat(creds.get("tried"))
                .extracting(c -> c.step(), c -> c.reason())
                .containsExactly(5, ReasonCode.CREDENTIAL_NOT_ALLOWED);
        assertThat(creds.get("zero").reason()).isEqualTo(ReasonCode.CREDENTIAL_WEIGHT_ZERO);
        assertThat(creds.get("paused"))
                .extracting(c -> c.verdict(), c -> c.reason(), c -> c.modelKey())
                .containsExactly(RouteTrace.Verdict.DROPPED, ReasonCode.MODEL_UNAVAILABLE, "m");
        assertThat(creds.get("cooling"))
                .extracting(c -> c.verdict(), c -> c.reason(), c -> c.recoveryAt())
                .containsExactly(RouteTrace.Verdict.COOLING, ReasonCode.CREDENTIAL_COOLDOWN, in(30));
        assertThat(creds.get("ok"))
                .extracting(c -> c.step(), c -> c.verdict())
                .containsExactly(6, RouteTrace.Verdict.SELECTED);
    }

    @Test
    void refusalTraceCarriesTheOutcomeAndEveryEvaluatedGroup() {
        AccessKeySnapshot key = key("k").groups("g1", "g2").build();
        PoolView view = PoolView.of(
                List.of(
                        cred("a").serves("m").paused("m").groups("g1").build(),
                        cred("b").serves("x").groups("g2").build()),
                List.of(group("g1").build(), group("g2").exposes("m").build()),
                List.of(key));
        RouteResult result = Router.route(
                view,
                new RouteRequest(key, Protocol.OPENAI_CHAT, "m", null),
                Set.of(),
                null,
                new SplittableRandom(2),
                NOW,
                true);
        assertThat(((RouteResult.Refused) result).code()).isEqualTo(ReasonCode.MODEL_UNAVAILABLE);
        assertThat(result.trace().outcome()).isEqualTo(ReasonCode.MODEL_UNAVAILABLE);
        assertThat(result.trace().groups())
                .extracting(
                        RouteTrace.GroupTrace::groupId, RouteTrace.GroupTrace::verdict, RouteTrace.GroupTrace::reason)
                .containsExactlyInAnyOrder(
                        org.assertj.core.groups.Tuple.tuple(
                                "g1", RouteTrace.Verdict.DROPPED, ReasonCode.MODEL_UNAVAILABLE),
                        org.assertj.core.groups.Tuple.tuple(
                                "g2", RouteTrace.Verdict.DROPPED, ReasonCode.MODEL_UNMATCHED));
    }

    @Test
    void fallbackPickIsTracedAsSelectedWithCooldownReason() {
        AccessKeySnapshot key = key("k").build();
        PoolView view = PoolView.of(
                List.of(
                        cred("a").serves("m").accountCooling(in(20)).build(),
                        cred("b").serves("m").accountCooling(in(10)).build()),
                List.of(group("g1").build()),
                List.of(key));
        RouteResult result = Router.route(
                view,
                new RouteRequest(key, Protocol.OPENAI_CHAT, "m", null),
                Set.of(),
                null,
                new SplittableRandom(1),
                NOW,
                true);
        List<RouteTrace.CredentialTrace> creds = result.trace().groups().get(0).credentials();
        assertThat(creds)
                .extracting(RouteTrace.CredentialTrace::credentialId, RouteTrace.CredentialTrace::verdict)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("a", RouteTrace.Verdict.COOLING),
                        org.assertj.core.groups.Tuple.tuple("b", RouteTrace.Verdict.SELECTED));
        assertThat(creds.get(1).reason()).isEqualTo(ReasonCode.CREDENTIAL_COOLDOWN);
        assertThat(creds.get(1).recoveryAt()).isEqualTo(in(10));
    }

    @Test
    void aProbeFromTheSecondGroupTracesThatGroupSelectedAndTheFirstDropped() {
        AccessKeySnapshot key = key("k").groups("g1", "g2").build();
        PoolView view = PoolView.of(
                List.of(
                        cred("a")
                                .serves("m")
                                .accountCooling(in(20))
                                .groups("g1")
                                .build(),
                        cred("b")
                                .serves("m")
                                .accountCooling(in(10))
                                .groups("g2")
                                .build()),
                List.of(
                        group("g1").manualWeight(100).build(),
                        group("g2").manualWeight(1).build()),
                List.of(key));
        RouteResult result = Router.route(
                view,
                new RouteRequest(key, Protocol.OPENAI_CHAT, "m", null),
                Set.of(),
                null,
                new SplittableRandom(1),
                NOW,
                true);
        assertThat(((RouteResult.Selected) result).credential().credentialId()).isEqualTo("b");
        assertThat(result.trace().groups())
                .extracting(
                        RouteTrace.GroupTrace::groupId, RouteTrace.GroupTrace::verdict, RouteTrace.GroupTrace::reason)
                .containsExactlyInAnyOrder(
                        org.assertj.core.groups.Tuple.tuple(
                                "g1", RouteTrace.Verdict.DROPPED, ReasonCode.NO_AVAILABLE_CREDENTIAL),
                        org.assertj.core.groups.Tuple.tuple("g2", RouteTrace.Verdict.SELECTED, null));
        RouteTrace.GroupTrace second = result.trace().groups().stream()
                .filter(g -> g.groupId().equals("g2"))
                .findFirst()
                .orElseThrow();
        assertThat(second.credentials()).singleElement().satisfies(c -> {
            assertThat(c.verdict()).isEqualTo(RouteTrace.Verdict.SELECTED);
            assertThat(c.detail()).isEqualTo("cooling fallback");
        });
    }

    @Test
    void accessRefusalIsTraced() {
        AccessKeySnapshot key = key("k").disabled().build();
        RouteResult result = Router.route(
                PoolView.of(List.of(), List.of(), List.of(key)),
                new RouteRequest(key, Protocol.OPENAI_CHAT, "m", null),
                Set.of(),
                null,
                new SplittableRandom(1),
                NOW,
                true);
        assertThat(result.trace().accessRefusal()).isEqualTo(ReasonCode.ACCESS_KEY_DISABLED);
        assertThat(result.trace().groups()).isEmpty();
    }

    @Test
    void noTraceUnlessRequested() {
        AccessKeySnapshot key = key("k").build();
        RouteResult result = Router.route(
                PoolView.of(
                        List.of(cred("a").serves("m").build()),
                        List.of(group("g1").build()),
                        List.of(key)),
                new RouteRequest(key, Protocol.OPENAI_CHAT, "m", null),
                Set.of(),
                null,
                new SplittableRandom(1),
                NOW,
                false);
        assertThat(result.trace()).isNull();
    }
}
