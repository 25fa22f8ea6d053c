package io.routegateway.gateway.forward;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.List;

import io.quarkus.test.junit.QuarkusTest;
import io.routegateway.core.event.GroupSnapshot;
import io.routegateway.core.model.Platform;
import io.routegateway.core.model.WeightMode;
import io.routegateway.core.state.AccountState;
import io.routegateway.core.state.AccountStatus;
import io.routegateway.core.state.ModelState;
import io.routegateway.core.state.ModelStatus;
import io.routegateway.gateway.support.GatewayTestBase;
import io.routegateway.gateway.support.MockUpstream;
import io.routegateway.gateway.support.Pool;
import org.junit.jupiter.api.Test;

import static io.routegateway.gateway.support.MockUpstream.json;
import static io.routegateway.gateway.support.MockUpstream.ok;
import static org.assertj.core.api.Assertions.assertThat;

/** Group failover, affinity, model mapping, native protocols and the pool refusal codes. */
@QuarkusTest
class RoutingTests extends GatewayTestBase {

    @Test
    void aGroupWithoutWorkingCredentialsHandsOverToTheNextGroup() {
        String a = Pool.uid("a");
        String b = Pool.uid("b");
        String first = Pool.uid("g1");
        String second = Pool.uid("g2");
        String keyId = Pool.uid("k");
        upstream.on(a, json(500, "{}"));
        upstream.on(b, ok());
        // the first group is drawn first 100 times out of 101
        GroupSnapshot heavy =
                new GroupSnapshot(first, 1, "heavy", true, WeightMode.MANUAL, 100, List.of(), false, Instant.now());
        GroupSnapshot light =
                new GroupSnapshot(second, 1, "light", true, WeightMode.MANUAL, 1, List.of(), false, Instant.now());
        install(
                List.of(
                        Pool.credential(a)
                                .serves("m")
                                .groups(first)
                                .policy(0, 10, false, 10)
                                .build(box),
                        Pool.credential(b).serves("m").groups(second).build(box)),
                List.of(heavy, light),
                Pool.key(keyId, List.of(first, second)));

        for (int i = 0; i < 20 && upstream.count(a) == 0; i++) {
            HttpResponse<String> response = post("/v1/chat/completions", keyId, chat("m"));
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.body()).contains("hello");
        }

        assertThat(upstream.count(a)).as("the first group was tried").isGreaterThan(0);
        assertThat(upstream.count(b))
                .as("and every request was served by the second")
                .isGreaterThan(0);
    }

    @Test
    void affinityPrefersTheCredentialThatServedThePromptAndIsNotAbsolute() {
        String x = Pool.uid("x");
        String y = Pool.uid("y");
        String group = Pool.uid("g");
        String keyId = Pool.uid("k");
        upstream.on(x, ok());
        upstream.on(y, ok());
        install(
                List.of(
                        Pool.credential(x).serves("m").groups(group).build(box),
                        Pool.credential(y).serves("m").groups(group).build(box)),
                List.of(Pool.group(group, true)),
                Pool.key(keyId, List.of(group)));
        String prompt = "{\"model\":\"m\",\"messages\":[{\"role\":\"system\",\"content\":\"You review Go code\"},"
                + "{\"role\":\"user\",\"content\":\"hi\"}]}";

        assertThat(post("/v1/chat/completions", keyId, prompt).statusCode()).isEqualTo(200);
        String first = upstream.count(x) == 1 ? x : y;
        String other = first.equals(x) ? y : x;
        for (int i = 0; i < 15; i++) {
            assertThat(post("/v1/chat/completions", keyId, prompt).statusCode()).isEqualTo(200);
        }
        assertThat(upstream.count(first))
                .as("same prompt prefix, same credential")
                .isEqualTo(16);
        assertThat(upstream.count(other)).isZero();

        upstream.on(first, json(503, "{}"));
        assertThat(post("/v1/chat/completions", keyId, prompt).statusCode()).isEqualTo(200);
        assertThat(upstream.count(other))
                .as("a failing remembered credential is routed around")
                .isEqualTo(1);
    }

    @Test
    void theModelIsRewrittenThroughTheMappingAndOneMKeepsItsBetaHeader() {
        String c = Pool.uid("c");
        String group = Pool.uid("g");
        String keyId = Pool.uid("k");
        upstream.on(c, json(200, "{\"type\":\"message\",\"content\":[{\"type\":\"text\",\"text\":\"hi\"}]}"));
        install(
                List.of(Pool.credential(c)
                        .platform(Platform.CLAUDE)
                        .maps("claude-sonnet", "upstream-sonnet")
                        .groups(group)
                        .build(box)),
                List.of(Pool.group(group, false)),
                Pool.key(keyId, List.of(group)));

        HttpResponse<String> plain = send(request("/v1/messages", keyId)
                .header("anthropic-version", "2023-06-01")
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString(
                        "{\"model\":\"claude-sonnet\",\"max_tokens\":5,\"messages\":[]}"))
                .build());
        HttpResponse<String> oneM =
                post("/v1/messages", keyId, "{\"model\":\"claude-sonnet[1m]\",\"max_tokens\":5,\"messages\":[]}");

        assertThat(plain.statusCode()).isEqualTo(200);
        assertThat(oneM.statusCode()).isEqualTo(200);
        List<MockUpstream.Hit> hits = upstream.hits(c);
        assertThat(hits.get(0).model()).isEqualTo("upstream-sonnet");
        assertThat(hits.get(0).headers().get("x-api-key")).isEqualTo(Pool.secretOf(c));
        assertThat(hits.get(0).headers()).doesNotContainKey("authorization");
        assertThat(hits.get(0).headers().get("anthropic-beta")).isNull();
        assertThat(hits.get(1).model()).isEqualTo("upstream-sonnet");
        assertThat(hits.get(1).headers().get("anthropic-beta")).contains("context-1m-2025-08-07");
        assertThat(usage(c, list -> list.size() >= 2))
                .as("both are charged to one model key")
                .allSatisfy(record -> assertThat(record.modelKey()).isEqualTo("upstream-sonnet"));
    }

    @Test
    void theClientsKeyNeverReachesTheUpstream() {
        String c = Pool.uid("c");
        String group = Pool.uid("g");
        String keyId = Pool.uid("k");
        upstream.on(c, ok());
        install(
                List.of(Pool.credential(c).serves("m").groups(group).build(box)),
                List.of(Pool.group(group, false)),
                Pool.key(keyId, List.of(group)));

        assertThat(post("/v1/chat/completions", keyId, chat("m")).statusCode()).isEqualTo(200);

        MockUpstream.Hit hit = upstream.hits(c).get(0);
        assertThat(hit.headers().get("authorization")).isEqualTo("Bearer " + Pool.secretOf(c));
        assertThat(hit.headers().values()).noneMatch(value -> value.contains(Pool.plaintext(keyId)));
    }

    @Test
    void nativeCredentialsServeTheirOwnProtocols() {
        String claude = Pool.uid("claude");
        String relay = Pool.uid("relay");
        String group = Pool.uid("g");
        String keyId = Pool.uid("k");
        upstream.on(claude, json(200, "{\"type\":\"message\",\"content\":[]}"));
        upstream.on(relay, ok());
        install(
                List.of(
                        Pool.credential(claude)
                                .platform(Platform.CLAUDE)
                                .serves("m")
                                .groups(group)
                                .build(box),
                        Pool.credential(relay)
                                .platform(Platform.OPENAI)
                                .serves("m")
                                .groups(group)
                                .build(box)),
                List.of(Pool.group(group, false)),
                Pool.key(keyId, List.of(group)));

        for (int i = 0; i < 10; i++) {
            assertThat(post("/v1/chat/completions", keyId, chat("m")).statusCode())
                    .isEqualTo(200);
            assertThat(post("/v1/messages", keyId, "{\"model\":\"m\",\"max_tokens\":1,\"messages\":[]}")
                            .statusCode())
                    .isEqualTo(200);
        }
        assertThat(upstream.hits(claude)).hasSize(10).allMatch(hit -> hit.path().equals("/v1/messages"));
        assertThat(upstream.hits(relay)).hasSize(10).allMatch(hit -> hit.path().equals("/v1/chat/completions"));

        // no credential speaks Gemini: only a bridge could serve it, which the request refuses
        HttpResponse<String> gemini = send(request("/v1beta/models/m:generateContent", keyId)
                .header("x-route-native-only", "true")
                .POST(HttpRequest.BodyPublishers.ofString("{\"contents\":[]}"))
                .build());
        assertThat(gemini.statusCode()).isEqualTo(502);
        assertThat(parse(gemini.body()).at("/error/details/0/reason").asText()).isEqualTo("native_route_required");
        assertThat(parse(gemini.body()).at("/error/status").asText()).isEqualTo("UNAVAILABLE");
    }

    @Test
    void unmatchedAndUnavailableModelsAreTwoDistinct502s() {
        String c = Pool.uid("c");
        String group = Pool.uid("g");
        String keyId = Pool.uid("k");
        ModelState paused = new ModelState(
                "m", ModelStatus.PAUSED, 0, null, 0, null, null, null, null, Instant.now(), Instant.now());
        install(
                List.of(Pool.credential(c)
                        .serves("m", "n")
                        .groups(group)
                        .model(paused)
                        .build(box)),
                List.of(Pool.group(group, false, "m", "n", "nope")),
                Pool.key(keyId, List.of(group)));

        HttpResponse<String> unavailable = post("/v1/chat/completions", keyId, chat("m"));
        HttpResponse<String> unmatched = post("/v1/chat/completions", keyId, chat("nope"));

        assertThat(unavailable.statusCode()).isEqualTo(502);
        assertThat(parse(unavailable.body()).at("/error/code").asText()).isEqualTo("route_pool.model_unavailable");
        assertThat(parse(unavailable.body()).at("/error/type").asText()).isEqualTo("routing_error");
        assertThat(unmatched.statusCode()).isEqualTo(502);
        assertThat(parse(unmatched.body()).at("/error/code").asText()).isEqualTo("route_pool.model_unmatched");
        assertThat(upstream.count(c)).isZero();

        HttpResponse<String> models = get("/v1/models", keyId);
        assertThat(models.statusCode()).isEqualTo(200);
        assertThat(models.body())
                .as("paused models are still listed")
                .contains("\"id\":\"m\"")
                .contains("\"id\":\"n\"");
    }

    @Test
    void aPoolThatIsOnlyCoolingAnswers502WithRetryAfterAfterTryingTheSoonest() {
        String c = Pool.uid("c");
        String group = Pool.uid("g");
        String keyId = Pool.uid("k");
        upstream.on(c, json(429, "{\"error\":{\"message\":\"slow down\"}}"));
        AccountState cooling = new AccountState(
                AccountStatus.OK,
                1,
                null,
                Instant.now().plusSeconds(30),
                "upstream_status",
                "upstream returned 429",
                null,
                0,
                null);
        install(
                List.of(Pool.credential(c)
                        .serves("m")
                        .groups(group)
                        .account(cooling)
                        .policy(0, 10, true, 30)
                        .build(box)),
                List.of(Pool.group(group, false)),
                Pool.key(keyId, List.of(group)));

        HttpResponse<String> response = post("/v1/chat/completions", keyId, chat("m"));

        assertThat(upstream.count(c))
                .as("the soonest-recovering cooling credential is still tried")
                .isEqualTo(1);
        assertThat(response.statusCode())
                .as("the client never sees the upstream's 429")
                .isEqualTo(502);
        assertThat(parse(response.body()).at("/error/code").asText()).isEqualTo("no_available_credential");
        assertThat(parse(response.body()).at("/error/message").asText()).contains("upstream returned 429");
        assertThat(response.headers().firstValue("retry-after")).isPresent();
        assertThat(Long.parseLong(response.headers().firstValue("retry-after").orElseThrow()))
                .isBetween(1L, 31L);
    }

    @Test
    void withEveryCredentialDownOneRequestMakesExactlyOneUpstreamAttempt() {
        String a = Pool.uid("a");
        String b = Pool.uid("b");
        String c = Pool.uid("c");
        String first = Pool.uid("g1");
        String second = Pool.uid("g2");
        String keyId = Pool.uid("k");
        for (String id : List.of(a, b, c)) {
            upstream.on(id, json(503, "{\"error\":{\"message\":\"overloaded\"}}"));
        }
        java.util.function.BiFunction<String, Integer, io.routegateway.core.event.CredentialSnapshot> cooling =
                (id, seconds) -> Pool.credential(id)
                        .serves("m")
                        .groups(id.equals(c) ? second : first)
                        .account(new AccountState(
                                AccountStatus.OK,
                                1,
                                null,
                                clock.instant().plusSeconds(seconds),
                                "upstream_status",
                                "upstream returned 503",
                                null,
                                0,
                                null))
                        // two same-credential retries each: the fallback alone could make nine attempts
                        .policy(2, 10, true, 30)
                        .build(box);
        install(
                List.of(cooling.apply(a, 30), cooling.apply(b, 20), cooling.apply(c, 40)),
                List.of(Pool.group(first, false), Pool.group(second, false)),
                Pool.key(keyId, List.of(first, second)));

        HttpResponse<String> response = post("/v1/chat/completions", keyId, chat("m"));

        assertThat(upstream.count(a) + upstream.count(b) + upstream.count(c))
                .as("one probe of a cooling credential per request")
                .isEqualTo(1);
        assertThat(upstream.count(b)).as("the soonest-recovering one").isEqualTo(1);
        assertThat(response.statusCode()).isEqualTo(502);
        assertThat(parse(response.body()).at("/error/code").asText()).isEqualTo("no_available_credential");
        assertThat(parse(response.body()).at("/error/message").asText()).contains("upstream returned 503");
        assertThat(response.headers().firstValue("retry-after")).isPresent();
    }
}
