package io.routegateway.gateway.config;

import java.time.Duration;

import io.quarkus.runtime.configuration.DurationConverter;
import io.quarkus.runtime.configuration.MemorySize;
import io.quarkus.runtime.configuration.MemorySizeConverter;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The spec's outbound ceilings as the gateway's defaults, read through the real config mapping. */
class GatewayConfigDefaultsTests {

    static GatewayConfig defaults() {
        // Quarkus's own converters, so "20s" and "32M" read as they do in the service
        SmallRyeConfig config = new SmallRyeConfigBuilder()
                .withConverter(Duration.class, 200, new DurationConverter())
                .withConverter(MemorySize.class, 200, new MemorySizeConverter())
                .withMapping(GatewayConfig.class)
                .build();
        return config.getConfigMapping(GatewayConfig.class);
    }

    @Test
    void outboundRequestsCarryA20SecondConnectAndA180SecondReadGapCeiling() {
        GatewayConfig.Upstream upstream = defaults().upstream();
        assertThat(upstream.connectTimeout()).isEqualTo(Duration.ofSeconds(20));
        assertThat(upstream.readGapTimeout()).isEqualTo(Duration.ofSeconds(180));
    }

    @Test
    void theFrontDoorBoundsBodiesAnswersAndSlowUploads() {
        GatewayConfig config = defaults();
        assertThat(config.request().maxBodySize().asLongValue()).isEqualTo(32L * 1024 * 1024);
        assertThat(config.request().bodyReadTimeout()).isEqualTo(Duration.ofSeconds(60));
        assertThat(config.upstream().maxResponseSize().asLongValue()).isEqualTo(16L * 1024 * 1024);
    }
}
