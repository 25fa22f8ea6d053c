package io.routegateway.e2e;

import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

import io.routegateway.demo.Behaviour;
import io.routegateway.demo.Behaviour.Mode;
import io.routegateway.e2e.support.EndToEndTest;
import io.routegateway.e2e.support.Http;
import io.routegateway.e2e.support.Pool;
import io.routegateway.e2e.support.TraceCollector.CollectedSpan;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Issue "observability", acceptance: a request that fails over twice is one trace across the
 * services — the gateway's server span, three attempt spans as siblings under it, and the
 * state-service apply of each failure it caused — carrying the GenAI and route attributes and no
 * content or secret. The services export over OTLP/HTTP to the test's collector, as to an
 * operator's; only a request with a sampled {@code traceparent} is traced (sampling ratio 0).
 */
class TraceIT extends EndToEndTest {

    private static final String PROMPT = "Say hello";

    @Test
    void aRequestThatFailsOverTwiceIsOneTraceWithThreeAttemptsAndTheStateServiceApply() {
        Pool pool = Pool.create(system);
        String first = pool.credential("first", c -> c.priority(0).retries(0).map("gpt-5.6-sol", "upstream-sol"));
        String second = pool.credential("second", c -> c.priority(1).retries(0).map("gpt-5.6-sol", "upstream-sol"));
        String third = pool.credential("third", c -> c.priority(2).map("gpt-5.6-sol", "upstream-sol"));
        String key = pool.accessKey(pool.group("main", first, second, third));
        pool.awaitVisible(key);
        system.demo().setBehaviour(first, new Behaviour(Mode.STATUS, 503, null, 0, 0));
        system.demo().setBehaviour(second, new Behaviour(Mode.STATUS, 502, null, 0, 0));

        String traceId = hex(16);
        String callerSpanId = hex(8);
        Http.Response answer = system.gateway()
                .chat(key, "gpt-5.6-sol", Map.of("traceparent", "00-" + traceId + "-" + callerSpanId + "-01"));
        assertThat(answer.status()).as("%s", answer).isEqualTo(200);
        assertThat(answer.servedBy()).isEqualTo(third);

        // the spans arrive in the exporters' batches: wait until both applies are in
        await("the trace reaches the collector")
                .atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> applies(traceId).size() >= 2 && attempts(traceId).size() >= 3);
        List<CollectedSpan> trace = system.traces().trace(traceId);

        CollectedSpan server = trace.stream()
                .filter(span -> span.kind() == CollectedSpan.SERVER && "gateway-service".equals(span.service()))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no gateway server span in " + trace));
        assertThat(server.parentSpanId()).as("the caller's span is the parent").isEqualTo(callerSpanId);
        assertThat(server.attribute("route.attempts")).isEqualTo(3L);
        assertThat(server.attribute("route.credential.id")).isEqualTo(third);
        assertThat(server.attribute("gen_ai.request.model")).isEqualTo("gpt-5.6-sol");
        assertThat(server.attribute("route.access_key.id")).isNotNull();

        List<CollectedSpan> attempts = attempts(traceId);
        assertThat(attempts).hasSize(3);
        assertThat(attempts)
                .as("retries and failovers are siblings under the server span")
                .allSatisfy(attempt -> assertThat(attempt.parentSpanId()).isEqualTo(server.spanId()));
        assertThat(attempts)
                .extracting(attempt -> attempt.attribute("route.credential.id"))
                .containsExactly(first, second, third);
        assertThat(attempts).allSatisfy(attempt -> {
            assertThat(attempt.attribute("gen_ai.operation.name")).isEqualTo("chat");
            assertThat(attempt.attribute("gen_ai.provider.name")).isEqualTo("openai");
            assertThat(attempt.attribute("gen_ai.request.model")).isEqualTo("upstream-sol");
        });
        assertThat(attempts.get(0).attribute("http.response.status_code")).isEqualTo(503L);
        assertThat(attempts.get(1).attribute("http.response.status_code")).isEqualTo(502L);
        assertThat(attempts.subList(0, 2)).allSatisfy(failed -> {
            assertThat(failed.attribute("route.failure.kind")).isNotNull();
            assertThat(failed.attribute("route.failure.scope")).isEqualTo("model");
        });
        assertThat(attempts.get(2).attribute("route.outcome")).isEqualTo("success");
        assertThat(attempts.get(2).attribute("route.failure.kind")).isNull();

        // each failure's outcome record carried the trace to state-service: its apply is a
        // descendant of that attempt's span, in the same trace
        List<CollectedSpan> applies = applies(traceId);
        for (String failed : List.of(first, second)) {
            CollectedSpan attempt = attempts.stream()
                    .filter(span -> failed.equals(span.attribute("route.credential.id")))
                    .findFirst()
                    .orElseThrow();
            CollectedSpan apply = applies.stream()
                    .filter(span -> failed.equals(span.attribute("route.credential.id")))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("no apply span for " + failed + " in " + applies));
            assertThat(apply.service()).isEqualTo("state-service");
            assertThat(apply.kind()).isEqualTo(CollectedSpan.CONSUMER);
            assertThat(apply.attribute("route.apply.result")).isEqualTo("changed");
            assertThat(ancestors(trace, apply))
                    .as("the apply descends from its attempt")
                    .contains(attempt.spanId());
        }

        // no content and no secret in any span of the trace
        List<String> forbidden = List.of(
                PROMPT,
                key,
                Pool.secretOf(first),
                Pool.secretOf(second),
                Pool.secretOf(third),
                answer.json()
                        .path("choices")
                        .path(0)
                        .path("message")
                        .path("content")
                        .asText("\u0000"));
        for (CollectedSpan span : trace) {
            for (String text : span.texts()) {
                for (String secret : forbidden) {
                    assertThat(text).as("span %s", span.name()).doesNotContain(secret);
                }
            }
        }
        system.demo().reset(first);
        system.demo().reset(second);
    }

    private static List<CollectedSpan> attempts(String traceId) {
        return system.traces().trace(traceId).stream()
                .filter(span -> span.kind() == CollectedSpan.CLIENT && span.attribute("route.attempt") != null)
                .sorted(java.util.Comparator.comparing(span -> (Long) span.attribute("route.attempt")))
                .toList();
    }

    private static List<CollectedSpan> applies(String traceId) {
        return system.traces().trace(traceId).stream()
                .filter(span ->
                        "state-service".equals(span.service()) && span.name().startsWith("apply"))
                .toList();
    }

    /** The span ids above {@code span}, nearest first, as far as the trace holds them. */
    private static List<String> ancestors(List<CollectedSpan> trace, CollectedSpan span) {
        java.util.ArrayList<String> chain = new java.util.ArrayList<>();
        String parent = span.parentSpanId();
        while (!parent.isEmpty() && chain.size() < 16) {
            chain.add(parent);
            String id = parent;
            Optional<CollectedSpan> next =
                    trace.stream().filter(s -> s.spanId().equals(id)).findFirst();
            parent = next.map(CollectedSpan::parentSpanId).orElse("");
        }
        return chain;
    }

    private static String hex(int bytes) {
        byte[] random = new byte[bytes];
        ThreadLocalRandom.current().nextBytes(random);
        random[0] |= 1; // never all zeros (an invalid id)
        return HexFormat.of().formatHex(random);
    }
}
