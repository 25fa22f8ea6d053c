package io.routegateway.state.group;

import java.util.List;

import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import com.fasterxml.jackson.databind.JsonNode;
import io.routegateway.state.web.AdminApi;
import io.routegateway.state.web.JsonBody;
import io.smallrye.mutiny.Uni;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.RestResponse;

@Path(AdminApi.BASE + "/groups")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "groups", description = "Groups: weight, exposed models, affinity, and their credential pools")
public class GroupResource {

    private final GroupAdminService service;

    GroupResource(GroupAdminService service) {
        this.service = service;
    }

    @GET
    @Operation(summary = "List groups")
    public Uni<List<GroupView>> list() {
        return service.list();
    }

    @POST
    @Operation(summary = "Create a group (manual weight 1..100; 0 is refused)")
    public Uni<RestResponse<GroupView>> create(
            @RequestBody(content = @Content(schema = @Schema(implementation = GroupInput.class))) JsonNode body) {
        return service.create(JsonBody.read(body, GroupInput.class))
                .map(created -> RestResponse.status(RestResponse.Status.CREATED, created));
    }

    @GET
    @Path("/{id}")
    @Operation(summary = "One group")
    public Uni<GroupView> get(@PathParam("id") String id) {
        return service.get(id);
    }

    @PATCH
    @Path("/{id}")
    @Operation(summary = "Update a group; credential_ids replaces its pool")
    public Uni<GroupView> update(
            @PathParam("id") String id,
            @RequestBody(content = @Content(schema = @Schema(implementation = GroupInput.class))) JsonNode body) {
        return service.update(id, JsonBody.read(body, GroupInput.class));
    }

    @DELETE
    @Path("/{id}")
    @Operation(summary = "Delete a group; its credentials and AccessKeys lose it")
    public Uni<RestResponse<Void>> delete(@PathParam("id") String id) {
        return service.delete(id).map(ok -> RestResponse.noContent());
    }
}
