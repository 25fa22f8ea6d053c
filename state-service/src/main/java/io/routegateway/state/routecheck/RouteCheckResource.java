package io.routegateway.state.routecheck;

import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import com.fasterxml.jackson.databind.JsonNode;
import io.routegateway.state.identity.CurrentPrincipal;
import io.routegateway.state.web.AdminApi;
import io.routegateway.state.web.JsonBody;
import io.smallrye.mutiny.Uni;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

@Path(AdminApi.BASE + "/route-check")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "route-check", description = "Dry-run routing with the decision trace; nothing is sent upstream")
public class RouteCheckResource {

    private final RouteCheckService service;
    private final CurrentPrincipal current;

    RouteCheckResource(RouteCheckService service, CurrentPrincipal current) {
        this.service = service;
        this.current = current;
    }

    @POST
    @Operation(summary = "Where would this request go, and why (reason codes per group and credential)")
    public Uni<RouteCheckView> check(
            @RequestBody(content = @Content(schema = @Schema(implementation = RouteCheckInput.class))) JsonNode body) {
        // a team role checks its own team's keys only
        return service.check(JsonBody.read(body, RouteCheckInput.class), current.onlyTeam());
    }
}
