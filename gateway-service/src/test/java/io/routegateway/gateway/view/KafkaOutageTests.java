package io.routegateway.gateway.view;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.routegateway.gateway.support.GatewayTestBase;
import io.routegateway.gateway.support.Pool;
import io.routegateway.testsupport.Management;
import io.routegateway.testsupport.RestartableKafkaBroker;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import static io.restassured.RestAssured.given;
import static io.routegateway.gateway.support.MockUpstream.ok;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.is;

/**
 * With Kafka gone the gateway keeps serving from its last view, stays ready, and publishing neither
 * blocks nor fails a request (the backlog is bounded, the excess dropped and counted); when Kafka is
 * back the view follows the topics again. Runs against its own broker, which it halts and restarts.
 */
@QuarkusTest
@TestProfile(KafkaOutageTests.OwnBroker.class)
class KafkaOutageTests extends GatewayTestBase {

    /** A broker of this class alone, and a small publication backlog so drops show quickly. */
    public static class OwnBroker implements QuarkusTestProfile {

        private static RestartableKafkaBroker broker;

        static synchronized RestartableKafkaBroker broker() {
            if (broker == null) {
                broker = RestartableKafkaBroker.start(Duration.ofMinutes(2));
            }
            return broker;
        }

        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("kafka.bootstrap.servers", broker().bootstrapServers(), "gateway.publish.max-pending", "5");
        }
    }

    @AfterAll
    static void stopBroker() {
        OwnBroker.broker().close();
    }

    @Test
    void servesFromItsLastViewWhileKafkaIsAwayAndFollowsAgainAfter() {
        assertThat(bootstrap)
                .as("this test's own broker")
                .isEqualTo(OwnBroker.broker().bootstrapServers());
        String credential = Pool.uid("c");
        String group = Pool.uid("g");
        String keyId = Pool.uid("k");
        upstream.on(credential, ok());
        install(
                List.of(Pool.credential(credential)
                        .serves("m")
                        .groups(group)
                        .version(1)
                        .build(box)),
                List.of(Pool.group(group, false)),
                Pool.key(keyId, List.of(group)));
        assertThat(post("/v1/chat/completions", keyId, chat("m")).statusCode()).isEqualTo(200);

        OwnBroker.broker().stop();
        for (int i = 0; i < 40; i++) {
            assertThat(post("/v1/chat/completions", keyId, chat("m")).statusCode())
                    .isEqualTo(200);
        }

        assertThat(upstream.count(credential)).isEqualTo(41);
        given().when()
                .get(Management.url("/health/ready"))
                .then()
                .statusCode(200)
                .body("status", is("UP"));
        String metrics = given().get(Management.url("/metrics")).asString();
        assertThat(droppedTotal(metrics))
                .as("the backlog beyond gateway.publish.max-pending is dropped and counted")
                .isGreaterThan(0);

        OwnBroker.broker().restart();
        install(
                List.of(Pool.credential(credential)
                        .serves("m", "n")
                        .groups(group)
                        .version(2)
                        .build(box)),
                List.of(),
                null);
        assertThat(post("/v1/chat/completions", keyId, chat("n")).statusCode()).isEqualTo(200);
    }

    private static double droppedTotal(String metrics) {
        return metrics.lines()
                .filter(line -> line.startsWith("gateway_events_dropped_total{"))
                .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
                .sum();
    }
}
