package io.routegateway.state.identity;

import java.util.List;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import io.routegateway.core.identity.AdminEndpoint;
import io.routegateway.core.identity.AdminEndpoints;
import io.routegateway.core.identity.Principal;
import io.routegateway.state.web.AdminApi;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * {@code GET /admin/v1/me}: who the caller is (subject, how authenticated, role, team) and which
 * endpoints the role reaches, from the one rule table ({@link AdminEndpoints}): the console's user
 * menu shows the first, and hides or disables what the second leaves out.
 */
@Path(AdminApi.BASE + "/me")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "identity", description = "The caller's identity and rights")
public class WhoAmIResource {

    /** The caller; {@code allowed} lists {@code METHOD template} of every endpoint the role reaches. */
    public record Me(String subject, String via, String role, String teamId, List<String> allowed) {}

    private final CurrentPrincipal current;

    WhoAmIResource(CurrentPrincipal current) {
        this.current = current;
    }

    @GET
    @Operation(summary = "The caller: subject, via (break_glass, api_token, sso), role, team, reachable endpoints")
    public Me me() {
        Principal principal = current.principal();
        List<String> allowed = AdminEndpoints.all().stream()
                .filter(endpoint -> endpoint.roles().contains(principal.role()))
                .map(AdminEndpoint::key)
                .toList();
        return new Me(
                principal.subject(), principal.via().wire(), principal.role().wire(), principal.teamId(), allowed);
    }
}
