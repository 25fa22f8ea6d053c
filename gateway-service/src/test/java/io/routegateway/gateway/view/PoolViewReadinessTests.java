package io.routegateway.gateway.view;

import java.lang.reflect.Proxy;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.routegateway.gateway.config.GatewayConfig;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Readiness is the view's catch-up, not a constant: a reader that has not yet read the state topics
 * up to their start-up end offsets keeps the replica out of the Service. ({@code PoolViewTests}
 * covers the caught-up side against a real broker.)
 */
class PoolViewReadinessTests {

    @Test
    void aViewThatHasNotCaughtUpIsNotReady() {
        PoolViewHolder holder = new PoolViewHolder();
        StateTopicsReader notStarted = new StateTopicsReader(
                holder, new LimitsView(), Clock.systemUTC(), Map.of(), config(), null, new SimpleMeterRegistry());

        HealthCheckResponse response = new PoolViewReadiness(notStarted, holder).call();

        assertThat(notStarted.caughtUp()).isFalse();
        assertThat(response.getName()).isEqualTo("pool-view");
        assertThat(response.getStatus()).isEqualTo(HealthCheckResponse.Status.DOWN);
        assertThat(response.getData())
                .hasValueSatisfying(
                        data -> assertThat(data).containsEntry("lag", -1L).containsEntry("credentials", 0L));
    }

    /** Only the view settings are read by the reader's constructor. */
    private static GatewayConfig config() {
        GatewayConfig.View view = (GatewayConfig.View) Proxy.newProxyInstance(
                GatewayConfig.View.class.getClassLoader(),
                new Class<?>[] {GatewayConfig.View.class},
                (proxy, method, args) -> Duration.ofSeconds(30));
        return (GatewayConfig) Proxy.newProxyInstance(
                GatewayConfig.class.getClassLoader(),
                new Class<?>[] {GatewayConfig.class},
                (proxy, method, args) -> view);
    }
}
