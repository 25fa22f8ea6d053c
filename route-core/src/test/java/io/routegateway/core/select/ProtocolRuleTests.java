package io.routegateway.core.select;

import java.util.List;
import java.util.Random;
import java.util.Set;

import io.routegateway.core.event.AccessKeySnapshot;
import io.routegateway.core.model.Platform;
import io.routegateway.core.model.Protocol;
import org.junit.jupiter.api.Test;

import static io.routegateway.core.select.Fixtures.NOW;
import static io.routegateway.core.select.Fixtures.cred;
import static io.routegateway.core.select.Fixtures.group;
import static io.routegateway.core.select.Fixtures.in;
import static io.routegateway.core.select.Fixtures.key;
import static org.assertj.core.api.Assertions.assertThat;

/** Without bridges a request only reaches credentials whose platform serves its protocol natively. */
class ProtocolRuleTests {

    private static final AccessKeySnapshot KEY = key("k").groups("g1", "g2").build();

    private static RouteResult route(PoolView view, Protocol protocol, Set<String> tried) {
        return Router.route(view, new RouteRequest(KEY, protocol, "m", null), tried, null, new Random(7), NOW, false);
    }

    @Test
    void theNativeRuleFollowsThePlatforms() {
        assertThat(ProtocolRule.NATIVE.serving(
                        cred("claude").platform(Platform.CLAUDE).build(), Protocol.ANTHROPIC_MESSAGES))
                .isEqualTo(ProtocolRule.Serving.NATIVE);
        assertThat(ProtocolRule.NATIVE.serving(
                        cred("relay").platform(Platform.OPENAI).build(), Protocol.ANTHROPIC_MESSAGES))
                .isEqualTo(ProtocolRule.Serving.NATIVE_REQUIRED);
        assertThat(ProtocolRule.NATIVE.serving(
                        cred("relay").platform(Platform.OPENAI).build(), Protocol.OPENAI_CHAT))
                .isEqualTo(ProtocolRule.Serving.NATIVE);
        assertThat(ProtocolRule.NATIVE.serving(
                        cred("claude").platform(Platform.CLAUDE).build(), Protocol.GEMINI))
                .isEqualTo(ProtocolRule.Serving.NATIVE_REQUIRED);
    }

    @Test
    void theRuleIsAnInputAnotherRuleCanReplace() {
        PoolView view = PoolView.of(
                List.of(cred("relay").platform(Platform.OPENAI).serves("m").build()),
                List.of(group("g1").build()),
                List.of(KEY));
        RouteRequest anyProtocol =
                new RouteRequest(KEY, Protocol.ANTHROPIC_MESSAGES, "m", null, Fixtures.EVERY_CREDENTIAL);

        RouteResult result = Router.route(view, anyProtocol, Set.of(), null, new Random(1), NOW, false);

        assertThat(((RouteResult.Selected) result).credential().credentialId()).isEqualTo("relay");
        assertThat(new RouteRequest(KEY, Protocol.OPENAI_CHAT, "m", null).protocolRule())
                .isSameAs(ProtocolRule.NATIVE);
    }

    @Test
    void aCredentialTheRuleRefusesIsTracedWithNativeRouteRequired() {
        PoolView view = PoolView.of(
                List.of(cred("relay").platform(Platform.OPENAI).serves("m").build()),
                List.of(group("g1").build()),
                List.of(KEY));

        RouteResult result = Router.route(
                view,
                new RouteRequest(KEY, Protocol.ANTHROPIC_MESSAGES, "m", null),
                Set.of(),
                null,
                new Random(1),
                NOW,
                true);

        assertThat(result.trace().outcome()).isEqualTo(ReasonCode.NATIVE_ROUTE_REQUIRED);
        assertThat(result.trace().groups().get(0).reason()).isEqualTo(ReasonCode.NATIVE_ROUTE_REQUIRED);
        assertThat(result.trace().groups().get(0).credentials()).singleElement().satisfies(row -> {
            assertThat(row.verdict()).isEqualTo(RouteTrace.Verdict.DROPPED);
            assertThat(row.reason()).isEqualTo(ReasonCode.NATIVE_ROUTE_REQUIRED);
            assertThat(row.detail()).contains("openai").contains("anthropic_messages");
        });
    }

    @Test
    void aNativeRouteRequiredGroupOutranksAnotherGroupsPausedModel() {
        PoolView view = PoolView.of(
                List.of(
                        cred("claude")
                                .platform(Platform.CLAUDE)
                                .serves("m")
                                .paused("m")
                                .groups("g1")
                                .build(),
                        cred("relay")
                                .platform(Platform.OPENAI)
                                .serves("m")
                                .groups("g2")
                                .build()),
                List.of(group("g1").build(), group("g2").build()),
                List.of(KEY));

        for (int i = 0; i < 10; i++) {
            RouteResult result = Router.route(
                    view,
                    new RouteRequest(KEY, Protocol.ANTHROPIC_MESSAGES, "m", null),
                    Set.of(),
                    null,
                    new Random(i),
                    NOW,
                    false);
            assertThat(((RouteResult.Refused) result).code()).isEqualTo(ReasonCode.NATIVE_ROUTE_REQUIRED);
        }
    }

    @Test
    void onlyTheNativeCredentialIsEverChosen() {
        PoolView view = PoolView.of(
                List.of(
                        cred("claude").platform(Platform.CLAUDE).serves("m").build(),
                        cred("relay").platform(Platform.OPENAI).serves("m").build()),
                List.of(group("g1").build()),
                List.of(KEY));

        for (int i = 0; i < 50; i++) {
            RouteResult anthropic = Router.route(
                    view,
                    new RouteRequest(KEY, Protocol.ANTHROPIC_MESSAGES, "m", null),
                    Set.of(),
                    null,
                    new Random(i),
                    NOW,
                    false);
            assertThat(((RouteResult.Selected) anthropic).credential().credentialId())
                    .isEqualTo("claude");
        }
        assertThat(((RouteResult.Selected) route(view, Protocol.OPENAI_CHAT, null))
                        .credential()
                        .credentialId())
                .isEqualTo("relay");
    }

    @Test
    void aCoolingNonNativeCredentialIsNotTheFallback() {
        PoolView view = PoolView.of(
                List.of(
                        cred("claude")
                                .platform(Platform.CLAUDE)
                                .serves("m")
                                .accountCooling(in(30))
                                .build(),
                        cred("relay")
                                .platform(Platform.OPENAI)
                                .serves("m")
                                .accountCooling(in(5))
                                .build()),
                List.of(group("g1").build()),
                List.of(KEY));

        RouteResult result = route(view, Protocol.ANTHROPIC_MESSAGES, null);

        assertThat(result).isInstanceOfSatisfying(RouteResult.Selected.class, selected -> {
            assertThat(selected.credential().credentialId()).isEqualTo("claude");
            assertThat(selected.fromCoolingFallback()).isTrue();
        });
    }

    @Test
    void aGroupWithoutNativeCredentialsFailsOverToTheNextGroup() {
        PoolView view = PoolView.of(
                List.of(
                        cred("relay")
                                .platform(Platform.OPENAI)
                                .serves("m")
                                .groups("g1")
                                .build(),
                        cred("claude")
                                .platform(Platform.CLAUDE)
                                .serves("m")
                                .groups("g2")
                                .build()),
                List.of(group("g1").build(), group("g2").build()),
                List.of(KEY));

        for (int i = 0; i < 20; i++) {
            RouteResult result = Router.route(
                    view,
                    new RouteRequest(KEY, Protocol.ANTHROPIC_MESSAGES, "m", null),
                    Set.of(),
                    null,
                    new Random(i),
                    NOW,
                    false);
            assertThat(((RouteResult.Selected) result).group().groupId()).isEqualTo("g2");
        }
    }

    @Test
    void nothingNativeIsNativeRouteRequired() {
        PoolView view = PoolView.of(
                List.of(cred("relay").platform(Platform.OPENAI).serves("m").build()),
                List.of(group("g1").build()),
                List.of(KEY));

        RouteResult result = route(view, Protocol.ANTHROPIC_MESSAGES, null);

        assertThat(result).isInstanceOfSatisfying(RouteResult.Refused.class, refused -> {
            assertThat(refused.code()).isEqualTo(ReasonCode.NATIVE_ROUTE_REQUIRED);
            assertThat(refused.httpStatus()).isEqualTo(502);
            assertThat(refused.message()).contains("anthropic_messages");
        });
    }

    @Test
    void aPausedModelStillReadsModelUnavailable() {
        PoolView view = PoolView.of(
                List.of(
                        cred("claude")
                                .platform(Platform.CLAUDE)
                                .serves("m")
                                .paused("m")
                                .build(),
                        cred("relay")
                                .platform(Platform.OPENAI)
                                .serves("m")
                                .paused("m")
                                .build()),
                List.of(group("g1").build()),
                List.of(KEY));

        RouteResult result = route(view, Protocol.ANTHROPIC_MESSAGES, null);

        assertThat(((RouteResult.Refused) result).code()).isEqualTo(ReasonCode.MODEL_UNAVAILABLE);
    }

    @Test
    void onceTheNativeOneWasTriedItIsNoAvailableCredential() {
        PoolView view = PoolView.of(
                List.of(
                        cred("claude").platform(Platform.CLAUDE).serves("m").build(),
                        cred("relay").platform(Platform.OPENAI).serves("m").build()),
                List.of(group("g1").build()),
                List.of(KEY));

        RouteResult result = route(view, Protocol.ANTHROPIC_MESSAGES, Set.of("claude"));

        assertThat(((RouteResult.Refused) result).code()).isEqualTo(ReasonCode.NO_AVAILABLE_CREDENTIAL);
    }
}
