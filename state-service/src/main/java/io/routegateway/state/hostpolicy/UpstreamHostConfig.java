package io.routegateway.state.hostpolicy;

import java.util.List;
import java.util.Optional;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * Where a credential's secret may be sent ({@code route.upstream-hosts.*}): route-core's {@code
 * HostPolicy} as configured, applied to every {@code base_url} the admin API writes.
 */
@ConfigMapping(prefix = "route.upstream-hosts")
public interface UpstreamHostConfig {

    /**
     * The deployment's own service ports, refused on a host that is not public: the gateway, state
     * and recovery HTTP and management ports as shipped ({@code ROUTE_UPSTREAM_HOSTS_DENIED_PORTS}).
     */
    @WithDefault("8080,8081,8082,9080,9081,9082")
    List<Integer> deniedPorts();

    /** Hosts never refused, whatever they are (an operator's explicit exception). */
    Optional<List<String>> allowedHosts();

    /** Public hosts that may be reached over cleartext {@code http://}. */
    Optional<List<String>> cleartextHosts();

    /** Lets cleartext {@code http://} reach any public host (off: only private hosts, or {@link #cleartextHosts}). */
    @WithDefault("false")
    boolean allowCleartextPublic();
}
