package io.routegateway.state.team;

import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import com.fasterxml.jackson.databind.JsonNode;
import io.routegateway.state.spend.SpendView;
import io.routegateway.state.web.AdminApi;
import io.routegateway.state.web.JsonBody;
import io.routegateway.state.web.Page;
import io.smallrye.mutiny.Uni;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.RestResponse;

@Path(AdminApi.BASE + "/teams")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "teams", description = "Teams: AccessKeys sharing limits, a budget and a weight")
public class TeamResource {

    private final TeamAdminService service;

    TeamResource(TeamAdminService service) {
        this.service = service;
    }

    @GET
    @Operation(summary = "List teams, oldest first, a page at a time")
    public Uni<Page<TeamView>> list(
            @Parameter(description = "1..500, default 50") @QueryParam("limit") String limit,
            @Parameter(description = "next_cursor of the previous page") @QueryParam("cursor") String cursor) {
        return service.list(limit, cursor);
    }

    @POST
    @Operation(summary = "Create a team (unknown fields are refused)")
    public Uni<RestResponse<TeamView>> create(
            @RequestBody(content = @Content(schema = @Schema(implementation = TeamInput.class))) JsonNode body) {
        return service.create(JsonBody.read(body, TeamInput.class))
                .map(created -> RestResponse.status(RestResponse.Status.CREATED, created));
    }

    @GET
    @Path("/{id}")
    @Operation(summary = "One team")
    public Uni<TeamView> get(@PathParam("id") String id) {
        return service.get(id);
    }

    @PATCH
    @Path("/{id}")
    @Operation(summary = "Update a team's name, limits or weight (unknown fields are refused)")
    public Uni<TeamView> update(
            @PathParam("id") String id,
            @RequestBody(content = @Content(schema = @Schema(implementation = TeamInput.class))) JsonNode body) {
        return service.update(id, JsonBody.read(body, TeamInput.class));
    }

    @DELETE
    @Path("/{id}")
    @Operation(summary = "Delete a team that owns no AccessKey (409 team.has_keys otherwise)")
    public Uni<RestResponse<Void>> delete(@PathParam("id") String id) {
        return service.delete(id).map(ok -> RestResponse.noContent());
    }

    @GET
    @Path("/{id}/spend")
    @Operation(summary = "The team's spend in its current budget window, by model")
    public Uni<SpendView> spend(@PathParam("id") String id) {
        return service.spend(id);
    }
}
