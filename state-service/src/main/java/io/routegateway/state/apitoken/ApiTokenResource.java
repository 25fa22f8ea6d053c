package io.routegateway.state.apitoken;

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
import io.routegateway.state.identity.CurrentPrincipal;
import io.routegateway.state.web.AdminApi;
import io.routegateway.state.web.JsonBody;
import io.smallrye.mutiny.Uni;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.RestResponse;

@Path(AdminApi.BASE + "/api-tokens")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "api-tokens", description = "API tokens for automation: a role each, shown once, stored hashed")
public class ApiTokenResource {

    private final ApiTokenAdminService service;
    private final CurrentPrincipal current;

    ApiTokenResource(ApiTokenAdminService service, CurrentPrincipal current) {
        this.service = service;
        this.current = current;
    }

    @GET
    @Operation(summary = "List the API tokens the caller could have created (never a token or its hash)")
    public Uni<List<ApiTokenView>> list() {
        return service.list(current.principal());
    }

    @POST
    @Operation(summary = "Create an API token (never above the caller's rights); the answer carries it, once")
    public Uni<RestResponse<CreatedApiToken>> create(
            @RequestBody(content = @Content(schema = @Schema(implementation = ApiTokenInput.class))) JsonNode body) {
        return service.create(current.principal(), JsonBody.read(body, ApiTokenInput.class))
                .map(created -> RestResponse.status(RestResponse.Status.CREATED, created));
    }

    @PATCH
    @Path("/{id}")
    @Operation(summary = "Rename an API token or change its expiry; its role and team never change")
    public Uni<ApiTokenView> update(
            @PathParam("id") String id,
            @RequestBody(content = @Content(schema = @Schema(implementation = ApiTokenPatch.class))) JsonNode body) {
        ApiTokenRules.refuseImmutable(body);
        return service.update(current.principal(), id, JsonBody.read(body, ApiTokenPatch.class));
    }

    @DELETE
    @Path("/{id}")
    @Operation(summary = "Revoke an API token: the next call with it is 401")
    public Uni<RestResponse<Void>> delete(@PathParam("id") String id) {
        return service.revoke(current.principal(), id).map(ok -> RestResponse.noContent());
    }
}
