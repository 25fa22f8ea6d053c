package io.routegateway.gateway.admission;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.routegateway.core.limits.Limits;
import io.routegateway.gateway.support.GatewayTestBase;
import io.routegateway.gateway.support.Pool;
import io.routegateway.testsupport.Management;
import io.routegateway.testsupport.RestartableKafkaBroker;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import static io.restassured.RestAssured.given;
import static io.routegateway.gateway.support.MockUpstream.ok;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code gateway.admission.when-unshared=refuse}: while the replica cannot read its peers' leases
 * (the broker is gone) a limited key is refused with 503 {@code limits_unavailable} in its protocol's
 * envelope, a key without limits is served as before, and once the broker is back the limited key is
 * admitted again. Runs against its own broker, which it halts and restarts.
 */
@QuarkusTest
@TestProfile(UnsharedAdmissionTests.RefuseWhenUnshared.class)
class UnsharedAdmissionTests extends GatewayTestBase {

    public static class RefuseWhenUnshared implements QuarkusTestProfile {

        private static RestartableKafkaBroker broker;

        static synchronized RestartableKafkaBroker broker() {
            if (broker == null) {
                broker = RestartableKafkaBroker.start(Duration.ofMinutes(2));
            }
            return broker;
        }

        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of(
                    "kafka.bootstrap.servers",
                    broker().bootstrapServers(),
                    "gateway.admission.when-unshared",
                    "refuse",
                    "gateway.admission.max-lag",
                    "2s");
        }
    }

    @AfterAll
    static void stopBroker() {
        RefuseWhenUnshared.broker().close();
    }

    @Test
    void aLimitedKeyIsRefusedWhileTheCountsCannotBeSharedAndAdmittedOnceTheyCan() {
        String credential = Pool.uid("c");
        String group = Pool.uid("g");
        String limited = Pool.uid("k");
        String unlimited = Pool.uid("k");
        upstream.on(credential, ok());
        install(
                List.of(Pool.credential(credential).serves("m").groups(group).build(box)),
                List.of(Pool.group(group, false)),
                Pool.key(limited, List.of(group), null, new Limits(1000, null, null, null, null)));
        install(List.of(), List.of(), Pool.key(unlimited, List.of(group)));
        await().atMost(KAFKA_WAIT)
                .until(() -> post("/v1/chat/completions", limited, chat("m")).statusCode() == 200);

        RefuseWhenUnshared.broker().stop();
        HttpResponse<String> refused = await().atMost(KAFKA_WAIT)
                .until(() -> post("/v1/chat/completions", limited, chat("m")), r -> r.statusCode() == 503);

        assertThat(parse(refused.body()).at("/error/code").asText()).isEqualTo(AdmissionStage.LIMITS_UNAVAILABLE);
        assertThat(refused.headers().firstValue("retry-after")).isPresent();
        assertThat(post("/v1/chat/completions", unlimited, chat("m")).statusCode())
                .as("a key without limits does not need the counts")
                .isEqualTo(200);
        assertThat(given().get(Management.url("/metrics")).asString())
                .contains("gateway_admission_refusals_total{code=\"limits_unavailable\",scope=\"unshared\"}");

        RefuseWhenUnshared.broker().restart();
        await().atMost(KAFKA_WAIT)
                .until(() -> post("/v1/chat/completions", limited, chat("m")).statusCode() == 200);
    }
}
