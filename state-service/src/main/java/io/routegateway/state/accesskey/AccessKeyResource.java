package io.routegateway.state.accesskey;

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
import io.routegateway.state.spend.SpendView;
import io.routegateway.state.web.AdminApi;
import io.routegateway.state.web.JsonBody;
import io.smallrye.mutiny.Uni;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.RestResponse;

@Path(AdminApi.BASE + "/access-keys")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "access-keys", description = "AccessKeys: the plaintext key is shown once, at creation")
public class AccessKeyResource {

    private final AccessKeyAdminService service;

    AccessKeyResource(AccessKeyAdminService service) {
        this.service = service;
    }

    @GET
    @Operation(summary = "List AccessKeys (never the key or its hash)")
    public Uni<List<AccessKeyView>> list() {
        return service.list();
    }

    @POST
    @Operation(summary = "Create an AccessKey; the answer carries the plaintext key, once")
    public Uni<RestResponse<CreatedAccessKey>> create(
            @RequestBody(content = @Content(schema = @Schema(implementation = AccessKeyInput.class))) JsonNode body) {
        return service.create(JsonBody.read(body, AccessKeyInput.class))
                .map(created -> RestResponse.status(RestResponse.Status.CREATED, created));
    }

    @GET
    @Path("/{id}")
    @Operation(summary = "One AccessKey")
    public Uni<AccessKeyView> get(@PathParam("id") String id) {
        return service.get(id);
    }

    @PATCH
    @Path("/{id}")
    @Operation(summary = "Update an AccessKey: enabled, expiry, protocol and model filters, group scope, team, limits")
    public Uni<AccessKeyView> update(
            @PathParam("id") String id,
            @RequestBody(content = @Content(schema = @Schema(implementation = AccessKeyInput.class))) JsonNode body) {
        return service.update(id, JsonBody.read(body, AccessKeyInput.class));
    }

    @DELETE
    @Path("/{id}")
    @Operation(summary = "Delete an AccessKey (a tombstone tells every gateway)")
    public Uni<RestResponse<Void>> delete(@PathParam("id") String id) {
        return service.delete(id).map(ok -> RestResponse.noContent());
    }

    @GET
    @Path("/{id}/spend")
    @Operation(summary = "The AccessKey's spend in its current budget window, by model")
    public Uni<SpendView> spend(@PathParam("id") String id) {
        return service.spend(id);
    }
}
