package io.routegateway.state.identity;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.routegateway.state.config.StateConfig;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * {@code GET /sso/v1/console}: what the console needs to sign in with single sign-on (no secret):
 * the issuer, whose discovery document names the authorization and token endpoints, the public
 * client it signs in as (authorization code with PKCE) and the scopes. Outside {@code /admin}: the
 * sign-in page reads it before anyone is signed in. {@code enabled: false} and nothing else when SSO
 * is off.
 */
@Path("/sso/v1/console")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "sso", description = "Single sign-on settings for the console (public, no secrets)")
public class SsoConfigResource {

    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record ConsoleSso(boolean enabled, String issuer, String clientId, String scopes) {}

    private final StateConfig.Oidc config;

    SsoConfigResource(StateConfig config) {
        this.config = config.oidc();
    }

    @GET
    @Operation(summary = "The console's single sign-on settings: issuer, public client id, scopes")
    public ConsoleSso console() {
        if (!config.enabled() || config.issuer().isEmpty()) {
            return new ConsoleSso(false, null, null, null);
        }
        return new ConsoleSso(
                true,
                config.issuer().get(),
                config.consoleClientId().orElse(config.clientId()),
                config.consoleScopes());
    }
}
