package io.routegateway.state.hostpolicy;

import jakarta.enterprise.context.ApplicationScoped;

import io.routegateway.common.upstream.UpstreamHostConfig;
import io.routegateway.core.hostpolicy.HostPolicy;
import io.routegateway.state.web.AdminException;

/**
 * The admin API's check of a credential's {@code base_url} against the configured {@link
 * HostPolicy}: refused with {@value HostPolicy#CODE} and the reason ({@code link_local}, {@code
 * metadata}, {@code own_port}, {@code cleartext}).
 */
@ApplicationScoped
public class UpstreamHosts {

    private final HostPolicy policy;

    UpstreamHosts(UpstreamHostConfig config) {
        this.policy = UpstreamHostConfig.policy(config);
    }

    /** Throws the admin API's refusal when {@code baseUrl} may not receive a secret. */
    public void require(String baseUrl) {
        HostPolicy.Reason reason = baseUrl == null ? null : policy.check(baseUrl.strip());
        if (reason != null) {
            throw AdminException.invalid(HostPolicy.CODE, reason.message());
        }
    }
}
