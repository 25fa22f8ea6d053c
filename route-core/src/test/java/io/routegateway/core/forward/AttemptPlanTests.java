package io.routegateway.core.forward;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import io.routegateway.core.bridge.BridgePlan;
import io.routegateway.core.event.CredentialSnapshot;
import io.routegateway.core.event.GroupSnapshot;
import io.routegateway.core.failure.FailureKind;
import io.routegateway.core.json.Json;
import io.routegateway.core.model.BridgePolicy;
import io.routegateway.core.model.CredentialKind;
import io.routegateway.core.model.Platform;
import io.routegateway.core.model.Protocol;
import io.routegateway.core.model.WeightMode;
import io.routegateway.core.select.RouteResult;
import io.routegateway.core.testing.CredentialBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** One attempt's plan: what is sent, whether it may stream, the bridge, the echo; or why not. */
class AttemptPlanTests {

    static final Instant NOW = Instant.parse("2026-12-05T12:00:00Z");
    static final GroupSnapshot GROUP =
            new GroupSnapshot("g1", 1, "g", true, WeightMode.AUTO, 0, List.of(), false, BridgePolicy.NATIVE_FIRST, NOW);
    static final List<Map.Entry<String, String>> HEADERS = List.of(
            Map.entry("user-agent", "sdk/1"),
            Map.entry("anthropic-beta", "x"),
            Map.entry("openai-organization", "org"));

    static JsonNode json(String text) {
        try {
            return Json.MAPPER.readTree(text);
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    static RouteResult.Selected selected(CredentialSnapshot credential, Protocol client, Protocol upstream) {
        return new RouteResult.Selected(GROUP, credential, "up-m", "up-m", false, false, null, client, upstream, null);
    }

    static CredentialSnapshot credential(Platform platform, CredentialKind kind) {
        CredentialBuilder builder = CredentialBuilder.credential("c1")
                .platform(platform)
                .maps("m", "up-m")
                .baseUrl("https://relay.test");
        return (kind == CredentialKind.OFFICIAL
                        ? CredentialBuilder.credential("c1").official(platform)
                        : builder)
                .build();
    }

    static AttemptPlan.Client chat(boolean stream, Operation operation) {
        String body =
                "{\"model\":\"m\",\"stream\":" + stream + ",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
        return new AttemptPlan.Client(
                Protocol.OPENAI_CHAT,
                operation,
                json(body),
                HEADERS,
                stream,
                false,
                BridgePlan.of(Protocol.OPENAI_CHAT, json(body), null, stream, "m", false));
    }

    static AttemptPlan.Client anthropic(boolean stream, Operation operation) {
        String body = "{\"model\":\"m\",\"max_tokens\":16,\"stream\":" + stream
                + ",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
        return new AttemptPlan.Client(
                Protocol.ANTHROPIC_MESSAGES,
                operation,
                json(body),
                HEADERS,
                stream,
                false,
                BridgePlan.of(Protocol.ANTHROPIC_MESSAGES, json(body), null, stream, "m", false));
    }

    @Test
    void aNativeStreamIsSentAsItCameAndMayStream() {
        AttemptPlan plan = AttemptPlan.of(
                chat(true, Operation.GENERATE),
                selected(credential(Platform.OPENAI, CredentialKind.API), Protocol.OPENAI_CHAT, Protocol.OPENAI_CHAT),
                () -> "sk-upstream");
        assertThat(plan).isInstanceOfSatisfying(AttemptPlan.Send.class, send -> {
            assertThat(send.mayStream()).isTrue();
            assertThat(send.bridge()).isNull();
            assertThat(send.canonical()).isNull();
            assertThat(send.request().url()).startsWith("https://relay.test");
            assertThat(new String(send.request().body(), StandardCharsets.UTF_8))
                    .contains("\"up-m\"");
            assertThat(send.echo().sent("up-m"))
                    .as("the echo is what the upstream was sent")
                    .isTrue();
        });
    }

    @Test
    void aBufferedRequestNeverStreams() {
        AttemptPlan plan = AttemptPlan.of(
                chat(false, Operation.GENERATE),
                selected(credential(Platform.OPENAI, CredentialKind.API), Protocol.OPENAI_CHAT, Protocol.OPENAI_CHAT),
                () -> "sk-upstream");
        assertThat(((AttemptPlan.Send) plan).mayStream()).isFalse();
    }

    @Test
    void aBridgedRequestIsConvertedAndCarriesOnlyTheAgentAndLanguageHeaders() {
        AttemptPlan plan = AttemptPlan.of(
                anthropic(true, Operation.GENERATE),
                selected(
                        credential(Platform.OPENAI, CredentialKind.API),
                        Protocol.ANTHROPIC_MESSAGES,
                        Protocol.OPENAI_CHAT),
                () -> "sk-upstream");
        assertThat(plan).isInstanceOfSatisfying(AttemptPlan.Send.class, send -> {
            assertThat(send.bridge()).isNotNull();
            assertThat(send.canonical()).isNotNull();
            assertThat(send.mayStream()).as("translated frame by frame").isTrue();
            assertThat(new String(send.request().body(), StandardCharsets.UTF_8))
                    .contains("\"messages\"");
            assertThat(send.request().headers())
                    .extracting(Map.Entry::getKey)
                    .doesNotContain("anthropic-beta", "openai-organization");
        });
    }

    @Test
    void aBridgedCountTokensIsTheLocalEstimate() {
        AttemptPlan plan = AttemptPlan.of(
                anthropic(false, Operation.COUNT_TOKENS),
                selected(
                        credential(Platform.OPENAI, CredentialKind.API),
                        Protocol.ANTHROPIC_MESSAGES,
                        Protocol.OPENAI_CHAT),
                () -> {
                    throw new AssertionError("no secret is opened for a local estimate");
                });
        assertThat(plan).isInstanceOf(AttemptPlan.LocalEstimate.class);
    }

    @Test
    void aNativeCountTokensGoesToTheUpstreamsCountingPathAndNeverStreams() {
        AttemptPlan plan = AttemptPlan.of(
                anthropic(false, Operation.COUNT_TOKENS),
                selected(
                        credential(Platform.CLAUDE, CredentialKind.API),
                        Protocol.ANTHROPIC_MESSAGES,
                        Protocol.ANTHROPIC_MESSAGES),
                () -> "sk-ant");
        assertThat(plan).isInstanceOfSatisfying(AttemptPlan.Send.class, send -> {
            assertThat(send.request().url()).endsWith("/count_tokens");
            assertThat(send.mayStream()).isFalse();
        });
    }

    @Test
    void aSecretThatDoesNotOpenIsARequestBuildFailureOfTheCredential() {
        AttemptPlan plan = AttemptPlan.of(
                chat(true, Operation.GENERATE),
                selected(credential(Platform.OPENAI, CredentialKind.API), Protocol.OPENAI_CHAT, Protocol.OPENAI_CHAT),
                () -> {
                    throw new IllegalStateException("sealed to another binding");
                });
        assertThat(plan).isInstanceOfSatisfying(AttemptPlan.Unbuildable.class, unbuildable -> {
            assertThat(unbuildable.verdict().kind()).isEqualTo(FailureKind.REQUEST_BUILD);
            assertThat(unbuildable.verdict().status()).isNull();
            assertThat(unbuildable.verdict().message())
                    .isEqualTo("could not build the upstream request: IllegalStateException")
                    .doesNotContain("sealed");
        });
    }

    @Test
    void aBridgeWhoseConversionDidNotHappenIsARequestBuildFailureNamingTheBridge() {
        AttemptPlan.Client client = anthropic(true, Operation.GENERATE);
        AttemptPlan.Client unconverted = new AttemptPlan.Client(
                client.protocol(),
                client.operation(),
                client.body(),
                client.headers(),
                client.stream(),
                false,
                // a body the bridge refuses to convert: routing would not have chosen the bridge
                BridgePlan.of(
                        Protocol.ANTHROPIC_MESSAGES,
                        json("{\"model\":\"m\",\"messages\":\"x\"}"),
                        null,
                        true,
                        "m",
                        false));
        AttemptPlan plan = AttemptPlan.of(
                unconverted,
                selected(
                        credential(Platform.OPENAI, CredentialKind.API),
                        Protocol.ANTHROPIC_MESSAGES,
                        Protocol.OPENAI_CHAT),
                () -> "sk-upstream");
        assertThat(plan)
                .isInstanceOfSatisfying(
                        AttemptPlan.Unbuildable.class,
                        unbuildable -> assertThat(unbuildable.verdict().message())
                                .startsWith(
                                        "could not build the upstream request through the bridge anthropic_messages->openai_chat"));
    }

    @Test
    void anOfficialAccountKeepsTheBufferedPathForAStream() {
        AttemptPlan plan = AttemptPlan.of(
                anthropic(true, Operation.GENERATE),
                selected(
                        credential(Platform.CLAUDE, CredentialKind.OFFICIAL),
                        Protocol.ANTHROPIC_MESSAGES,
                        Protocol.ANTHROPIC_MESSAGES),
                () -> "oauth-token");
        assertThat(((AttemptPlan.Send) plan).mayStream()).isFalse();
    }
}
