package io.routegateway.recovery.config;

import java.time.Duration;

import io.quarkus.runtime.configuration.DurationConverter;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The spec's numbers as the service's defaults, read through the real config mapping. */
class RecoveryServiceConfigDefaultsTests {

    static RecoveryServiceConfig defaults() {
        // Quarkus's own converter, so "20s" reads as it does in the service
        SmallRyeConfig config = new SmallRyeConfigBuilder()
                .withConverter(Duration.class, 200, new DurationConverter())
                .withMapping(RecoveryServiceConfig.class)
                .build();
        return config.getConfigMapping(RecoveryServiceConfig.class);
    }

    @Test
    void theSchedulerTicksEvery30SecondsByDefault() {
        assertThat(defaults().tickSeconds()).as("RECOVERY_TICK_SECONDS = 30").isEqualTo(30);
    }

    @Test
    void modelTestsUseTheSpecsTwoCeilings() {
        RecoveryServiceConfig.Upstream upstream = defaults().upstream();
        assertThat(upstream.connectTimeout()).isEqualTo(Duration.ofSeconds(20));
        assertThat(upstream.readGapTimeout()).isEqualTo(Duration.ofSeconds(180));
    }
}
