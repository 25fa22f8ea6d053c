package io.routegateway.gateway.trace;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import jakarta.inject.Inject;

import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.routegateway.core.event.Topics;
import io.routegateway.gateway.support.GatewayTestBase;
import io.routegateway.gateway.support.MockUpstream;
import io.routegateway.gateway.support.Pool;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.Test;

import static io.routegateway.gateway.support.MockUpstream.json;
import static io.routegateway.gateway.support.MockUpstream.ok;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Traces with the SDK on, every request sampled and the spans in memory: a request that fails over
 * twice is one trace with the server span and three attempt spans as its children, with the GenAI
 * and gateway attributes and no prompt, answer or secret; its outcome records carry the attempts'
 * {@code traceparent} on the real broker.
 */
@QuarkusTest
@TestProfile(TracingTests.Traced.class)
class TracingTests extends GatewayTestBase {

    /** The SDK on, everything sampled, no OTLP exporter (nothing listens), spans exported at once. */
    public static class Traced implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of(
                    "quarkus.otel.sdk.disabled", "false",
                    "quarkus.otel.exporter.otlp.enabled", "false",
                    "quarkus.otel.traces.sampler.arg", "1.0",
                    "quarkus.otel.bsp.schedule.delay", "20ms");
        }
    }

    private static final String PROMPT = "a prompt no span may hold 7f3c";

    @Inject
    InMemorySpanExporter spans;

    @Test
    void aRequestThatFailsOverTwiceIsOneTraceWithThreeSiblingAttemptsAndNoContent() {
        String a = Pool.uid("a");
        String b = Pool.uid("b");
        String c = Pool.uid("c");
        String group = Pool.uid("g");
        String keyId = Pool.uid("k");
        upstream.on(a, json(429, "{\"error\":{\"message\":\"slow down " + Pool.secretOf(a) + "\"}}"));
        upstream.on(b, json(500, "{\"error\":{\"message\":\"boom\"}}"));
        upstream.on(c, ok());
        install(
                List.of(
                        Pool.credential(a)
                                .serves("m")
                                .groups(group)
                                .priority(0)
                                .policy(0, 10, false, 10)
                                .build(box),
                        Pool.credential(b)
                                .serves("m")
                                .groups(group)
                                .priority(1)
                                .policy(0, 10, false, 10)
                                .build(box),
                        Pool.credential(c)
                                .serves("m")
                                .groups(group)
                                .priority(2)
                                .policy(0, 10, false, 10)
                                .build(box)),
                List.of(Pool.group(group, false)),
                Pool.key(keyId, List.of(group)));
        spans.reset();

        HttpResponse<String> response = post(
                "/v1/chat/completions",
                keyId,
                "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"" + PROMPT + "\"}]}");
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).contains("hello");

        SpanData server = await().atMost(KAFKA_WAIT)
                .until(() -> serverSpan(keyId), Optional::isPresent)
                .get();
        String traceId = server.getTraceId();
        List<SpanData> attempts = await().atMost(KAFKA_WAIT)
                .until(
                        () -> spans.getFinishedSpanItems().stream()
                                .filter(s -> s.getParentSpanId().equals(server.getSpanId()))
                                .filter(s -> s.getAttributes().get(RequestTracing.ATTEMPT) != null)
                                .sorted(Comparator.comparing(
                                        s -> s.getAttributes().get(RequestTracing.ATTEMPT)))
                                .toList(),
                        list -> list.size() >= 3);

        assertThat(attempts).hasSize(3);
        assertThat(attempts).allSatisfy(s -> {
            assertThat(s.getTraceId()).isEqualTo(traceId);
            assertThat(s.getKind()).isEqualTo(SpanKind.CLIENT);
            assertThat(s.getAttributes().get(RequestTracing.OPERATION)).isEqualTo("chat");
            assertThat(s.getAttributes().get(RequestTracing.PROVIDER)).isEqualTo("openai");
            assertThat(s.getAttributes().get(RequestTracing.REQUEST_MODEL)).isEqualTo("m");
            assertThat(s.getAttributes().get(RequestTracing.GROUP_ID)).isEqualTo(group);
        });
        assertThat(attempts)
                .extracting(s -> s.getAttributes().get(RequestTracing.CREDENTIAL_ID))
                .containsExactly(a, b, c);
        assertThat(attempts)
                .extracting(s -> s.getAttributes().get(RequestTracing.ATTEMPT))
                .containsExactly(1L, 2L, 3L);
        SpanData first = attempts.get(0);
        SpanData second = attempts.get(1);
        SpanData third = attempts.get(2);
        assertThat(first.getAttributes().get(RequestTracing.UPSTREAM_STATUS)).isEqualTo(429L);
        assertThat(first.getAttributes().get(RequestTracing.FAILURE_KIND)).isNotBlank();
        assertThat(first.getAttributes().get(RequestTracing.FAILURE_SCOPE)).isIn("account", "model");
        assertThat(second.getAttributes().get(RequestTracing.UPSTREAM_STATUS)).isEqualTo(500L);
        assertThat(second.getAttributes().get(RequestTracing.FAILURE_KIND)).isEqualTo("upstream_status");
        assertThat(second.getAttributes().get(RequestTracing.FAILURE_SCOPE)).isIn("account", "model");
        assertThat(first.getAttributes().get(RequestTracing.RESPONSE_MODEL)).isNull();
        assertThat(third.getAttributes().get(RequestTracing.OUTCOME)).isEqualTo("success");
        assertThat(third.getAttributes().get(RequestTracing.FAILURE_KIND)).isNull();
        assertThat(third.getAttributes().get(RequestTracing.INPUT_TOKENS)).isEqualTo(11L);
        assertThat(third.getAttributes().get(RequestTracing.OUTPUT_TOKENS)).isEqualTo(7L);

        assertThat(server.getAttributes().get(RequestTracing.ATTEMPTS)).isEqualTo(3L);
        assertThat(server.getAttributes().get(RequestTracing.CREDENTIAL_ID)).isEqualTo(c);
        assertThat(server.getAttributes().get(RequestTracing.OPERATION)).isEqualTo("chat");
        assertThat(server.getAttributes().get(RequestTracing.REQUEST_MODEL)).isEqualTo("m");
        assertThat(server.getAttributes().get(RequestTracing.PROVIDER)).isEqualTo("openai");
        assertThat(server.getAttributes().get(RequestTracing.GROUP_ID)).isEqualTo(group);
        assertThat(server.getAttributes().get(RequestTracing.REASON_CODE)).isNull();

        // no content and no secret anywhere in the trace: not the prompt, not the answer, not the
        // upstream's error text, not the client's key, not a credential's secret
        List<String> forbidden = List.of(
                PROMPT,
                "hello",
                "slow down",
                "boom",
                Pool.plaintext(keyId),
                Pool.secretOf(a),
                Pool.secretOf(b),
                Pool.secretOf(c));
        List<SpanData> trace = spans.getFinishedSpanItems().stream()
                .filter(s -> s.getTraceId().equals(traceId))
                .toList();
        for (SpanData span : trace) {
            span.getAttributes()
                    .forEach((key, value) -> assertThat(String.valueOf(value))
                            .as("%s of span %s", key, span.getName())
                            .doesNotContain(forbidden));
            assertThat(span.getName()).doesNotContain(forbidden);
            span.getEvents()
                    .forEach(event -> event.getAttributes()
                            .forEach((key, value) ->
                                    assertThat(String.valueOf(value)).doesNotContain(forbidden)));
        }

        // the failures' outcome records carry their attempt's traceparent: state-service's apply joins
        for (String failed : List.of(a, b)) {
            List<ConsumerRecord<String, String>> records =
                    topics().readRecords(Topics.OUTCOMES, failed::equals, list -> !list.isEmpty(), KAFKA_WAIT);
            assertThat(records).as("the outcome record of %s", failed).isNotEmpty();
            Header traceparent = records.get(0).headers().lastHeader("traceparent");
            assertThat(traceparent)
                    .as("traceparent on the outcome record of %s", failed)
                    .isNotNull();
            String value = new String(traceparent.value(), StandardCharsets.UTF_8);
            assertThat(value).startsWith("00-" + traceId + "-").endsWith("-01");
        }
    }

    @Test
    void theAnsweredModelIsOnTheAttemptSpanAndTheUsageRecordCarriesTheTraceparent() {
        String a = Pool.uid("a");
        String group = Pool.uid("g");
        String keyId = Pool.uid("k");
        upstream.on(
                a,
                json(
                        200,
                        MockUpstream.CHAT_OK.replace("{\"id\":\"c1\",", "{\"id\":\"c1\",\"model\":\"m-2026-01-01\",")));
        install(
                List.of(Pool.credential(a).serves("m").groups(group).build(box)),
                List.of(Pool.group(group, false)),
                Pool.key(keyId, List.of(group)));
        spans.reset();

        HttpResponse<String> response = post(
                "/v1/chat/completions",
                keyId,
                "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");
        assertThat(response.statusCode()).isEqualTo(200);

        SpanData server = await().atMost(KAFKA_WAIT)
                .until(() -> serverSpan(keyId), Optional::isPresent)
                .get();
        SpanData attempt = await().atMost(KAFKA_WAIT)
                .until(
                        () -> spans.getFinishedSpanItems().stream()
                                .filter(s -> s.getParentSpanId().equals(server.getSpanId()))
                                .filter(s -> s.getAttributes().get(RequestTracing.ATTEMPT) != null)
                                .findFirst(),
                        Optional::isPresent)
                .get();
        // the model the upstream answered with, beside the one asked for
        assertThat(attempt.getAttributes().get(RequestTracing.REQUEST_MODEL)).isEqualTo("m");
        assertThat(attempt.getAttributes().get(RequestTracing.RESPONSE_MODEL)).isEqualTo("m-2026-01-01");

        // the usage record of a sampled request leaves alone, with its request's traceparent
        List<ConsumerRecord<String, String>> records =
                topics().readRecords(Topics.USAGE, a::equals, list -> !list.isEmpty(), KAFKA_WAIT);
        Header traceparent = records.get(0).headers().lastHeader("traceparent");
        assertThat(traceparent).as("traceparent on the usage record").isNotNull();
        assertThat(new String(traceparent.value(), StandardCharsets.UTF_8))
                .startsWith("00-" + server.getTraceId() + "-")
                .endsWith("-01");
    }

    @Test
    void anAccessKeyInTheQueryIsRedactedFromTheServerSpan() {
        String c = Pool.uid("c");
        String keyId = onePlatformPool(c, io.routegateway.core.model.Platform.GEMINI, "gemini-x", "gemini-x");
        upstream.on(c, json(200, "{\"candidates\":[]}"));
        spans.reset();
        String plaintext = Pool.plaintext(keyId);

        HttpResponse<String> response = send(request("/v1beta/models/gemini-x:generateContent?key=" + plaintext, null)
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString("{\"contents\":[]}"))
                .build());
        assertThat(response.statusCode()).isLessThan(500);

        SpanData server = await().atMost(KAFKA_WAIT)
                .until(
                        () -> spans.getFinishedSpanItems().stream()
                                .filter(s -> s.getKind() == SpanKind.SERVER)
                                .filter(s -> String.valueOf(s.getAttributes().get(QueryKeyRedaction.URL_QUERY))
                                        .contains("key="))
                                .findFirst(),
                        Optional::isPresent)
                .get();
        assertThat(server.getAttributes().get(QueryKeyRedaction.URL_QUERY)).isEqualTo("key=REDACTED");
        server.getAttributes()
                .forEach((key, value) -> assertThat(String.valueOf(value)).doesNotContain(plaintext));
    }

    private Optional<SpanData> serverSpan(String keyId) {
        return spans.getFinishedSpanItems().stream()
                .filter(s -> s.getKind() == SpanKind.SERVER)
                .filter(s -> keyId.equals(s.getAttributes().get(RequestTracing.ACCESS_KEY_ID)))
                .findFirst();
    }
}
