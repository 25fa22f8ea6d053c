package io.routegateway.gateway.load;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.inject.Inject;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.routegateway.core.event.RequestCompleted;
import io.routegateway.core.load.LoadShedding;
import io.routegateway.gateway.support.GatewayTestBase;
import io.routegateway.gateway.support.MockUpstream;
import io.routegateway.gateway.support.Pool;
import io.vertx.core.http.HttpServerRequest;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A replica at its load caps (here 2 requests, 200 KB of bodies) sheds the next request with 503
 * {@code gateway_overloaded} and {@code Retry-After} in the client's protocol, before reading its
 * body or sending anything upstream, and charges no credential; the slots come back as requests end.
 * And a key without limits of its own takes the deployment's defaults.
 */
@QuarkusTest
@TestProfile(LoadSheddingTests.SmallCaps.class)
class LoadSheddingTests extends GatewayTestBase {

    public static class SmallCaps implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of(
                    "gateway.load.max-concurrent-requests", "2",
                    "gateway.load.max-in-flight-body-bytes", "200K",
                    // a deployment's default key limits (the other tests stay under them per key)
                    "gateway.admission.default-key-limits.rpm", "4");
        }
    }

    @Inject
    LoadGuard load;

    /** Upstream requests held unanswered until {@link #release}. */
    private final List<HttpServerRequest> held = new CopyOnWriteArrayList<>();

    private void release() {
        for (HttpServerRequest request : held) {
            request.response().putHeader("content-type", "application/json").end(MockUpstream.CHAT_OK);
        }
        held.clear();
    }

    private String holdingPool(String credential) {
        upstream.on(credential, (request, body, number) -> held.add(request));
        String group = Pool.uid("g");
        String key = Pool.uid("k");
        install(
                List.of(Pool.credential(credential).serves("m").groups(group).build(box)),
                List.of(Pool.group(group, false)),
                Pool.key(key, List.of(group)));
        return key;
    }

    private CompletableFuture<HttpResponse<String>> sendAsync(String path, String key, String body) {
        return http.sendAsync(
                request(path, key)
                        .POST(HttpRequest.BodyPublishers.ofString(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void pastTheConcurrencyCapARequestIsShedInItsProtocolsEnvelopeAndNoCredentialIsCharged() throws Exception {
        String credential = Pool.uid("c");
        String key = holdingPool(credential);
        List<CompletableFuture<HttpResponse<String>>> inProgress = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            inProgress.add(sendAsync("/v1/chat/completions", key, chat("m")));
        }
        await().atMost(KAFKA_WAIT).until(() -> held.size() == 2);
        assertThat(load.requestsInProgress()).isEqualTo(2);

        HttpResponse<String> openai = post("/v1/chat/completions", key, chat("m"));
        assertThat(openai.statusCode()).isEqualTo(503);
        assertThat(openai.headers().firstValue("retry-after")).hasValue("1");
        JsonNode error = parse(openai.body()).path("error");
        assertThat(error.path("code").asText()).isEqualTo(LoadShedding.GATEWAY_OVERLOADED);
        assertThat(error.path("message").asText()).contains("concurrent requests");

        HttpResponse<String> anthropic = post(
                "/v1/messages",
                key,
                "{\"model\":\"m\",\"max_tokens\":5,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");
        assertThat(anthropic.statusCode()).isEqualTo(503);
        JsonNode envelope = parse(anthropic.body());
        assertThat(envelope.path("type").asText()).as("Anthropic's envelope").isEqualTo("error");
        assertThat(envelope.path("error").path("type").asText()).isNotBlank();

        assertThat(upstream.count(credential))
                .as("nothing shed reaches the upstream")
                .isEqualTo(2);
        release();
        for (CompletableFuture<HttpResponse<String>> request : inProgress) {
            assertThat(request.get().statusCode()).isEqualTo(200);
        }
        await().atMost(KAFKA_WAIT).until(() -> load.requestsInProgress() == 0);
        assertThat(load.bodyBytesHeld()).isZero();

        // the slots are back: the next request is served
        upstream.on(credential, MockUpstream.ok());
        assertThat(post("/v1/chat/completions", key, chat("m")).statusCode()).isEqualTo(200);

        List<RequestCompleted> records = usage(
                key,
                found -> found.stream()
                                .filter(r -> LoadShedding.GATEWAY_OVERLOADED.equals(r.reasonCode()))
                                .count()
                        >= 2);
        assertThat(records)
                .filteredOn(r -> LoadShedding.GATEWAY_OVERLOADED.equals(r.reasonCode()))
                .allSatisfy(shed -> {
                    assertThat(shed.status()).isEqualTo(503);
                    assertThat(shed.credentialId())
                            .as("no credential was selected")
                            .isNull();
                    assertThat(shed.attempts()).isZero();
                });
    }

    @Test
    void aBodyThatWouldPassTheByteBudgetIsShedWhileASmallOneIsTaken() throws Exception {
        String credential = Pool.uid("c");
        String key = holdingPool(credential);
        CompletableFuture<HttpResponse<String>> large = sendAsync("/v1/chat/completions", key, chatOf(150_000));
        await().atMost(KAFKA_WAIT).until(() -> held.size() == 1);
        assertThat(load.bodyBytesHeld()).isGreaterThan(150_000);

        // declared, not sent: the answer comes on the headers alone and the connection is closed
        RawAnswer shed = raw(
                "POST /v1/chat/completions HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer " + Pool.plaintext(key)
                        + "\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n",
                new byte[0]);
        assertThat(shed.status()).isEqualTo(503);
        assertThat(shed.head().toLowerCase()).contains("retry-after: 1").contains("connection: close");
        assertThat(shed.error().path("code").asText()).isEqualTo(LoadShedding.GATEWAY_OVERLOADED);
        assertThat(shed.error().path("message").asText()).contains("request bodies");
        assertThat(shed.closed()).isTrue();

        String other = Pool.uid("c");
        String otherKey = holdingPool(other);
        upstream.on(other, MockUpstream.ok());
        assertThat(post("/v1/chat/completions", otherKey, chatOf(10_000)).statusCode())
                .as("a small body fits beside the large one")
                .isEqualTo(200);

        release();
        assertThat(large.get().statusCode()).isEqualTo(200);
        await().atMost(KAFKA_WAIT).until(() -> load.bodyBytesHeld() == 0 && load.requestsInProgress() == 0);
    }

    @Test
    void aKeyWithoutLimitsOfItsOwnTakesTheDefaultsAndAKeyWithItsOwnKeepsThem() {
        String credential = Pool.uid("c");
        upstream.on(credential, MockUpstream.ok());
        String group = Pool.uid("g");
        String plain = Pool.uid("k");
        String own = Pool.uid("k");
        install(
                List.of(Pool.credential(credential).serves("m").groups(group).build(box)),
                List.of(Pool.group(group, false)),
                Pool.key(plain, List.of(group)));
        install(
                List.of(),
                List.of(),
                Pool.key(
                        own, List.of(group), null, new io.routegateway.core.limits.Limits(10, null, null, null, null)));

        for (int i = 0; i < 4; i++) {
            HttpResponse<String> served = post("/v1/chat/completions", plain, chat("m"));
            assertThat(served.statusCode()).isEqualTo(200);
            assertThat(served.headers().firstValue("x-ratelimit-limit-requests"))
                    .hasValue("4");
        }
        HttpResponse<String> refused = post("/v1/chat/completions", plain, chat("m"));
        assertThat(refused.statusCode()).as("the default rpm of 4").isEqualTo(429);
        assertThat(refused.headers().firstValue("retry-after")).isPresent();

        for (int i = 0; i < 5; i++) {
            HttpResponse<String> served = post("/v1/chat/completions", own, chat("m"));
            assertThat(served.statusCode()).as("its own rpm of 10").isEqualTo(200);
            assertThat(served.headers().firstValue("x-ratelimit-limit-requests"))
                    .hasValue("10");
        }
    }

    private static String chatOf(int contentChars) {
        return "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"" + "x".repeat(contentChars) + "\"}]}";
    }
}
