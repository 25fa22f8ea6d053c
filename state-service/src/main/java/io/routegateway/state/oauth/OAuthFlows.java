package io.routegateway.state.oauth;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkus.arc.Unremovable;
import io.routegateway.core.model.Platform;

/**
 * The configured authorization-code flow of each platform, as {@link OAuthAdminRules} reads it.
 * Unremovable: Quarkus registers a config mapping only through a kept bean's injection point, and
 * the route.oauth.* defaults must validate at start even before any flow is asked for.
 */
@ApplicationScoped
@Unremovable
public class OAuthFlows {

    private final OAuthConfig config;

    OAuthFlows(OAuthConfig config) {
        this.config = config;
    }

    /** The platform's flow settings; null for a platform without official accounts. */
    public OAuthAdminRules.FlowSettings settings(Platform platform) {
        return config.of(platform)
                .map(oauth -> new OAuthAdminRules.FlowSettings(
                        oauth.authorizeUrl().orElse(null),
                        oauth.clientId().orElse(null),
                        oauth.redirectUri().orElse(null),
                        oauth.scopeList(),
                        oauth.authorizeParameters(),
                        oauth.tokenUrl().isPresent()))
                .orElse(null);
    }
}
