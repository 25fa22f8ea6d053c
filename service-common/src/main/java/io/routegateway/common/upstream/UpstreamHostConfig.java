package io.routegateway.common.upstream;

import java.util.HashSet;
import java.util.List;
import java.util.Optional;

import io.routegateway.core.hostpolicy.HostPolicy;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * Where a credential's secret may be sent ({@code route.upstream-hosts.*}): route-core's {@code
 * HostPolicy} as configured: applied by state-service to every {@code base_url} the admin API
 * writes, and by the {@link UpstreamClient} of the gateway and recovery-service to the address each
 * connection resolved to (DNS rebinding). One setting for all three services.
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

    /** The policy these settings describe. */
    static HostPolicy policy(UpstreamHostConfig config) {
        return new HostPolicy(
                new HashSet<>(config.deniedPorts()),
                new HashSet<>(config.allowedHosts().orElse(List.of())),
                new HashSet<>(config.cleartextHosts().orElse(List.of())),
                config.allowCleartextPublic());
    }
}
