package io.routegateway.core.bridge;

import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import io.routegateway.core.event.AccessKeySnapshot;
import io.routegateway.core.event.GroupSnapshot;
import io.routegateway.core.json.Json;
import io.routegateway.core.model.BridgePolicy;
import io.routegateway.core.model.Platform;
import io.routegateway.core.model.Protocol;
import io.routegateway.core.select.PoolView;
import io.routegateway.core.select.ReasonCode;
import io.routegateway.core.select.RouteRequest;
import io.routegateway.core.select.RouteResult;
import io.routegateway.core.select.RouteTrace;
import io.routegateway.core.select.Router;
import org.junit.jupiter.api.Test;

import static io.routegateway.core.select.Fixtures.NOW;
import static io.routegateway.core.select.Fixtures.cred;
import static io.routegateway.core.select.Fixtures.group;
import static io.routegateway.core.select.Fixtures.in;
import static io.routegateway.core.select.Fixtures.key;
import static org.assertj.core.api.Assertions.assertThat;

/** Routing with protocol bridges: {@link BridgePlan} as the request's rule, the group's {@link BridgePolicy} on top. */
class BridgeRoutingTests {

    private static final AccessKeySnapshot KEY = key("k").groups("g1", "g2").build();
    private static final String MESSAGES =
            "{\"model\":\"m\",\"max_tokens\":64,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";

    private static JsonNode json(String text) {
        try {
            return Json.MAPPER.readTree(text);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static BridgePlan plan(Protocol protocol, String body, boolean nativeOnly) {
        return BridgePlan.of(protocol, json(body), null, false, "m", nativeOnly);
    }

    private static RouteResult route(PoolView view, Protocol protocol, BridgePlan plan, long seed, boolean trace) {
        return Router.route(
                view, new RouteRequest(KEY, protocol, "m", null, plan), Set.of(), null, new Random(seed), NOW, trace);
    }

    private static PoolView claudeAndRelay(BridgePolicy policy) {
        return PoolView.of(
                List.of(
                        cred("claude").platform(Platform.CLAUDE).serves("m").build(),
                        cred("relay").platform(Platform.OPENAI).serves("m").build()),
                List.of(group("g1").bridging(policy).build()),
                List.of(KEY));
    }

    @Test
    void aPoolOfAnotherProtocolServesThroughTheBridgeIntoThePlatformsProtocol() {
        PoolView view = PoolView.of(
                List.of(cred("relay").platform(Platform.OPENAI).serves("m").build()),
                List.of(group("g1").build()),
                List.of(KEY));

        RouteResult result =
                route(view, Protocol.ANTHROPIC_MESSAGES, plan(Protocol.ANTHROPIC_MESSAGES, MESSAGES, false), 1, true);

        RouteResult.Selected selected = (RouteResult.Selected) result;
        assertThat(selected.credential().credentialId()).isEqualTo("relay");
        assertThat(selected.bridged()).isTrue();
        assertThat(selected.upstreamProtocol()).isEqualTo(Protocol.OPENAI_CHAT);
        assertThat(selected.bridge()).isEqualTo("anthropic_messages->openai_chat");
        RouteTrace.CredentialTrace row =
                result.trace().groups().get(0).credentials().get(0);
        assertThat(row.detail()).contains("bridge anthropic_messages->openai_chat");
    }

    @Test
    void eachPlatformIsBridgedIntoItsOwnProtocol() {
        assertThat(Platform.CLAUDE.upstreamProtocol(Protocol.OPENAI_CHAT)).isEqualTo(Protocol.ANTHROPIC_MESSAGES);
        assertThat(Platform.CODEX.upstreamProtocol(Protocol.GEMINI)).isEqualTo(Protocol.OPENAI_RESPONSES);
        assertThat(Platform.GEMINI.upstreamProtocol(Protocol.OPENAI_RESPONSES)).isEqualTo(Protocol.GEMINI);
        assertThat(Platform.OPENAI.upstreamProtocol(Protocol.ANTHROPIC_MESSAGES))
                .isEqualTo(Protocol.OPENAI_CHAT);
        assertThat(Platform.OPENAI.upstreamProtocol(Protocol.OPENAI_RESPONSES)).isEqualTo(Protocol.OPENAI_RESPONSES);
    }

    @Test
    void nativeCredentialsComeFirstAndTheRequestIsNotConverted() {
        PoolView view = claudeAndRelay(BridgePolicy.NATIVE_FIRST);
        for (long seed = 0; seed < 40; seed++) {
            // a body no bridge can express: the native credential serves it without a conversion
            BridgePlan plan = plan(
                    Protocol.ANTHROPIC_MESSAGES,
                    "{\"model\":\"m\",\"max_tokens\":8,\"mcp_servers\":[],\"messages\":[]}",
                    false);
            RouteResult.Selected selected =
                    (RouteResult.Selected) route(view, Protocol.ANTHROPIC_MESSAGES, plan, seed, false);
            assertThat(selected.credential().credentialId()).isEqualTo("claude");
            assertThat(selected.bridged()).isFalse();
            assertThat(plan.unsupportedDetail()).isNull();
        }
    }

    @Test
    void aBridgedCredentialServesWhenTheNativeOneIsCoolingRatherThanProbingIt() {
        PoolView view = PoolView.of(
                List.of(
                        cred("claude")
                                .platform(Platform.CLAUDE)
                                .serves("m")
                                .accountCooling(in(30))
                                .build(),
                        cred("relay").platform(Platform.OPENAI).serves("m").build()),
                List.of(group("g1").build()),
                List.of(KEY));

        RouteResult.Selected selected = (RouteResult.Selected)
                route(view, Protocol.ANTHROPIC_MESSAGES, plan(Protocol.ANTHROPIC_MESSAGES, MESSAGES, false), 3, false);

        assertThat(selected.credential().credentialId()).isEqualTo("relay");
        assertThat(selected.fromCoolingFallback()).isFalse();
    }

    @Test
    void onceTheNativeOneWasTriedTheBridgedOneIsNext() {
        PoolView view = claudeAndRelay(BridgePolicy.NATIVE_FIRST);
        RouteResult result = Router.route(
                view,
                new RouteRequest(
                        KEY,
                        Protocol.ANTHROPIC_MESSAGES,
                        "m",
                        null,
                        plan(Protocol.ANTHROPIC_MESSAGES, MESSAGES, false)),
                new HashSet<>(Set.of("claude")),
                null,
                new Random(1),
                NOW,
                false);

        assertThat(((RouteResult.Selected) result).credential().credentialId()).isEqualTo("relay");
    }

    @Test
    void aGroupThatMixesThemDrawsAmongBoth() {
        PoolView view = claudeAndRelay(BridgePolicy.ANY);
        Set<String> chosen = new HashSet<>();
        for (long seed = 0; seed < 60; seed++) {
            RouteResult.Selected selected = (RouteResult.Selected) route(
                    view, Protocol.ANTHROPIC_MESSAGES, plan(Protocol.ANTHROPIC_MESSAGES, MESSAGES, false), seed, false);
            chosen.add(selected.credential().credentialId());
        }
        assertThat(chosen).containsExactlyInAnyOrder("claude", "relay");
    }

    @Test
    void aNativeOnlyGroupIsNativeRouteRequired() {
        PoolView view = PoolView.of(
                List.of(cred("relay").platform(Platform.OPENAI).serves("m").build()),
                List.of(group("g1").bridging(BridgePolicy.NATIVE_ONLY).build()),
                List.of(KEY));

        RouteResult result =
                route(view, Protocol.ANTHROPIC_MESSAGES, plan(Protocol.ANTHROPIC_MESSAGES, MESSAGES, false), 1, true);

        RouteResult.Refused refused = (RouteResult.Refused) result;
        assertThat(refused.code()).isEqualTo(ReasonCode.NATIVE_ROUTE_REQUIRED);
        assertThat(refused.httpStatus()).isEqualTo(502);
        assertThat(result.trace().groups().get(0).credentials().get(0).detail()).contains("native-only");
    }

    @Test
    void aNativeOnlyRequestIsNativeRouteRequired() {
        PoolView view = PoolView.of(
                List.of(cred("relay").platform(Platform.OPENAI).serves("m").build()),
                List.of(group("g1").build()),
                List.of(KEY));

        RouteResult result =
                route(view, Protocol.ANTHROPIC_MESSAGES, plan(Protocol.ANTHROPIC_MESSAGES, MESSAGES, true), 1, false);

        assertThat(((RouteResult.Refused) result).code()).isEqualTo(ReasonCode.NATIVE_ROUTE_REQUIRED);
    }

    @Test
    void aRequestTheConversionCannotExpressIsOperationUnsupportedWith400() {
        PoolView view = PoolView.of(
                List.of(cred("claude").platform(Platform.CLAUDE).serves("m").build()),
                List.of(group("g1").build()),
                List.of(KEY));
        BridgePlan plan = plan(
                Protocol.OPENAI_RESPONSES,
                "{\"model\":\"m\",\"input\":\"hi\",\"previous_response_id\":\"resp_1\"}",
                false);

        RouteResult result = route(view, Protocol.OPENAI_RESPONSES, plan, 1, true);

        RouteResult.Refused refused = (RouteResult.Refused) result;
        assertThat(refused.code()).isEqualTo(ReasonCode.OPERATION_UNSUPPORTED);
        assertThat(refused.httpStatus()).isEqualTo(400);
        assertThat(refused.message()).contains("previous_response_id");
        RouteTrace.CredentialTrace row =
                result.trace().groups().get(0).credentials().get(0);
        assertThat(row.reason()).isEqualTo(ReasonCode.OPERATION_UNSUPPORTED);
        assertThat(row.detail()).contains("previous_response_id");
    }

    @Test
    void anUnsupportedConversionLeavesTheNativeCredentialOfAnotherGroup() {
        PoolView view = PoolView.of(
                List.of(
                        cred("claude")
                                .platform(Platform.CLAUDE)
                                .serves("m")
                                .groups("g1")
                                .build(),
                        cred("codex")
                                .platform(Platform.CODEX)
                                .serves("m")
                                .groups("g2")
                                .build()),
                List.of(group("g1").build(), group("g2").build()),
                List.of(KEY));
        for (long seed = 0; seed < 20; seed++) {
            BridgePlan plan = plan(
                    Protocol.OPENAI_RESPONSES,
                    "{\"model\":\"m\",\"input\":\"hi\",\"previous_response_id\":\"r\"}",
                    false);
            RouteResult.Selected selected =
                    (RouteResult.Selected) route(view, Protocol.OPENAI_RESPONSES, plan, seed, false);
            assertThat(selected.credential().credentialId()).isEqualTo("codex");
        }
    }

    @Test
    void aThrottledNativeGroupOutranksAGroupThatCannotConvertTheRequest() {
        // issue 34: Codex answered 429 (tried, cooling); the Claude group can never serve a
        // previous_response_id. The request failed on a wait, not on its own shape: 502
        // no_available_credential with Retry-After, not a 400 the client would give up on
        PoolView view = PoolView.of(
                List.of(
                        cred("claude")
                                .platform(Platform.CLAUDE)
                                .serves("m")
                                .groups("g1")
                                .build(),
                        cred("codex")
                                .platform(Platform.CODEX)
                                .serves("m")
                                .groups("g2")
                                .accountCooling(in(45))
                                .build()),
                List.of(group("g1").build(), group("g2").build()),
                List.of(KEY));
        for (long seed = 0; seed < 20; seed++) {
            BridgePlan plan = plan(
                    Protocol.OPENAI_RESPONSES,
                    "{\"model\":\"m\",\"input\":\"hi\",\"previous_response_id\":\"r\"}",
                    false);
            RouteResult result = Router.route(
                    view,
                    new RouteRequest(KEY, Protocol.OPENAI_RESPONSES, "m", null, plan),
                    Set.of("codex"),
                    null,
                    new Random(seed),
                    NOW,
                    true);

            RouteResult.Refused refused = (RouteResult.Refused) result;
            assertThat(refused.code()).isEqualTo(ReasonCode.NO_AVAILABLE_CREDENTIAL);
            assertThat(refused.httpStatus()).isEqualTo(502);
            assertThat(refused.earliestRecoveryAt()).isEqualTo(in(45));
            assertThat(result.trace().outcome()).isEqualTo(ReasonCode.NO_AVAILABLE_CREDENTIAL);
        }
    }

    @Test
    void theConversionIsKeptForTheUpstreamRequest() {
        BridgePlan plan = plan(Protocol.ANTHROPIC_MESSAGES, MESSAGES, false);

        RequestConversion first = plan.conversion(Protocol.OPENAI_CHAT);

        assertThat(first).isInstanceOf(RequestConversion.Converted.class);
        assertThat(plan.conversion(Protocol.OPENAI_CHAT)).isSameAs(first);
        assertThat(((RequestConversion.Converted) first)
                        .body()
                        .path("messages")
                        .get(0)
                        .path("content")
                        .asText())
                .isEqualTo("hi");
    }

    @Test
    void aGroupSnapshotWithoutThePolicyIsNativeFirst() throws Exception {
        GroupSnapshot old = Json.MAPPER.readValue(
                "{\"group_id\":\"g\",\"version\":1,\"name\":\"n\",\"enabled\":true,\"weight_mode\":\"auto\","
                        + "\"weight\":0,\"exposed_models\":[],\"affinity_enabled\":false}",
                GroupSnapshot.class);

        assertThat(old.bridging()).isEqualTo(BridgePolicy.NATIVE_FIRST);
        assertThat(Json.MAPPER.writeValueAsString(
                        group("g").bridging(BridgePolicy.NATIVE_ONLY).build()))
                .contains("\"bridging\":\"native_only\"");
    }
}
