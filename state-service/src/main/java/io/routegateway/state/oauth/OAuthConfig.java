package io.routegateway.state.oauth;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.routegateway.core.model.Platform;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * The OAuth settings of official accounts, under {@code route.oauth.*}: per platform the token
 * endpoint, the authorization-code flow and the client, plus the refresher's timing. Every URL is
 * configurable so tests and private deployments can point elsewhere (the local run points them at
 * the demo upstream's mock OAuth server).
 */
@ConfigMapping(prefix = "route.oauth")
public interface OAuthConfig {

    /** Refresh an access token this long before it expires ({@code ROUTE_OAUTH_REFRESH_LEAD}). */
    @WithDefault("5m")
    Duration refreshLead();

    /**
     * How long a refresher holds a credential's refresh lease. Longer than {@link #httpTimeout()}: a
     * lease never ends while its token call can still be answered, so no second refresher can present
     * the same (rotating) refresh token.
     */
    @WithDefault("60s")
    Duration lease();

    /** The token endpoint call's whole timeout ({@code ROUTE_OAUTH_HTTP_TIMEOUT}). */
    @WithDefault("20s")
    Duration httpTimeout();

    /** How often the refresher looks for due credentials ({@code ROUTE_OAUTH_TICK}). */
    @WithDefault("2s")
    Duration tick();

    /** Backoff after a transient refresh failure: doubled per failure from this, capped at {@link #maxBackoff()}. */
    @WithDefault("10s")
    Duration backoff();

    @WithDefault("10m")
    Duration maxBackoff();

    /** Codex (ChatGPT sign-in). The public defaults of each platform are in application.properties. */
    PlatformOAuth codex();

    PlatformOAuth claude();

    PlatformOAuth gemini();

    PlatformOAuth grok();

    /** The settings of {@code platform}; empty for platforms without official accounts (openai). */
    default Optional<PlatformOAuth> of(Platform platform) {
        return switch (platform) {
            case CODEX -> Optional.of(codex());
            case CLAUDE -> Optional.of(claude());
            case GEMINI -> Optional.of(gemini());
            case GROK -> Optional.of(grok());
            default -> Optional.empty();
        };
    }

    /** One platform's OAuth endpoints and client. */
    interface PlatformOAuth {

        /** The token endpoint (refresh and code exchange); no refresh happens without it. */
        Optional<String> tokenUrl();

        /** The authorize page of the authorization-code flow. */
        Optional<String> authorizeUrl();

        Optional<String> clientId();

        /** Only for platforms whose installed-app client has one (Google). Never logged. */
        Optional<String> clientSecret();

        /** The default redirect URI of the authorization-code flow. */
        Optional<String> redirectUri();

        /** Space-separated scopes asked for in the authorization-code flow (and Codex refreshes). */
        Optional<String> scopes();

        /** Extra query parameters of the authorize URL (e.g. Claude's {@code code=true}). */
        Map<String, String> authorizeParameters();

        default List<String> scopeList() {
            return scopes().map(text -> List.of(text.trim().split("\\s+"))).orElse(List.of());
        }
    }
}
