package io.routegateway.gateway.forward;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.quarkus.test.junit.QuarkusTest;
import io.routegateway.gateway.support.GatewayTestBase;
import io.routegateway.gateway.support.MockUpstream;
import io.routegateway.gateway.support.Pool;
import org.jboss.logging.Logger;
import org.junit.jupiter.api.Test;

import static io.routegateway.gateway.support.MockUpstream.json;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The product's promise on two credentials, one of which the upstream throttles for one model:
 * clients see no failure at all, and the throttled (credential, model) pair is tried at most
 * {@code retry_count + 1} times per cooldown window (counted at the upstream). Time moves through
 * four cooldown windows on the test clock.
 */
@QuarkusTest
class OneModelThrottledTests extends GatewayTestBase {

    private static final Logger LOG = Logger.getLogger(OneModelThrottledTests.class);
    private static final int RETRY_COUNT = 2;
    private static final int COOLDOWN_SECONDS = 10;
    private static final int WINDOWS = 4;
    private static final int REQUESTS_PER_WINDOW = 50;

    @Test
    void twoHundredRequestsNoClientFailureAndBoundedAttemptsPerWindow() {
        String throttled = Pool.uid("a");
        String healthy = Pool.uid("b");
        String group = Pool.uid("g");
        String keyId = Pool.uid("k");
        MockUpstream.Behaviour throttleOneModel = (request, body, n) -> {
            if (body.contains("\"model\":\"m1\"")) {
                json(429, "{\"error\":{\"message\":\"rate limited for m1\"}}").handle(request, body, n);
            } else {
                MockUpstream.ok().handle(request, body, n);
            }
        };
        upstream.on(throttled, throttleOneModel);
        upstream.on(healthy, MockUpstream.ok());
        install(
                List.of(
                        Pool.credential(throttled)
                                .serves("m1", "m2")
                                .groups(group)
                                .policy(RETRY_COUNT, 10, true, COOLDOWN_SECONDS)
                                .build(box),
                        Pool.credential(healthy)
                                .serves("m1", "m2")
                                .groups(group)
                                .policy(RETRY_COUNT, 10, true, COOLDOWN_SECONDS)
                                .build(box)),
                List.of(Pool.group(group, false)),
                Pool.key(keyId, List.of(group)));

        List<Integer> attemptsPerWindow = new ArrayList<>();
        int clientFailures = 0;
        for (int window = 0; window < WINDOWS; window++) {
            int before = m1Attempts(throttled);
            for (int i = 0; i < REQUESTS_PER_WINDOW; i++) {
                HttpResponse<String> response = post("/v1/chat/completions", keyId, chat("m1"));
                if (response.statusCode() != 200) {
                    clientFailures++;
                }
            }
            attemptsPerWindow.add(m1Attempts(throttled) - before);
            clock.advance(Duration.ofSeconds(COOLDOWN_SECONDS + 1));
        }

        LOG.infof(
                "%d requests, %d client-visible failures; attempts on the throttled (credential, model) per cooldown"
                        + " window: %s",
                WINDOWS * REQUESTS_PER_WINDOW, clientFailures, attemptsPerWindow);
        assertThat(clientFailures).isZero();
        assertThat(attemptsPerWindow)
                .allSatisfy(attempts -> assertThat(attempts).isLessThanOrEqualTo(RETRY_COUNT + 1));
        assertThat(attemptsPerWindow.stream().mapToInt(Integer::intValue).sum())
                .as("the throttled pair was actually probed again after its windows")
                .isGreaterThanOrEqualTo(RETRY_COUNT + 1);
        assertThat(upstream.count(healthy)).isGreaterThanOrEqualTo(WINDOWS * REQUESTS_PER_WINDOW - WINDOWS);

        HttpResponse<String> otherModel = post("/v1/chat/completions", keyId, chat("m2"));
        assertThat(otherModel.statusCode()).isEqualTo(200);
        assertThat(views.pool().credential(throttled).orElseThrow().account().cooldownUntil())
                .as("a model-scoped 429 leaves the account's other model usable")
                .isNull();
    }

    private int m1Attempts(String credential) {
        return (int) upstream.hits(credential).stream()
                .filter(hit -> "m1".equals(hit.model()))
                .count();
    }
}
