package io.routegateway.gateway.config;

import java.time.Duration;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Settings of gateway-service, under {@code gateway.*}. */
@ConfigMapping(prefix = "gateway")
public interface GatewayConfig {

    /** Outbound calls to upstream LLM APIs. */
    Upstream upstream();

    interface Upstream {

        /** Longest wait for a TCP connection to an upstream ({@code GATEWAY_UPSTREAM_CONNECT_TIMEOUT}). */
        @WithDefault("20s")
        Duration connectTimeout();

        /**
         * Longest silence between two chunks of an upstream response before the attempt counts as timed
         * out ({@code GATEWAY_UPSTREAM_READ_GAP_TIMEOUT}).
         */
        @WithDefault("180s")
        Duration readGapTimeout();
    }
}
