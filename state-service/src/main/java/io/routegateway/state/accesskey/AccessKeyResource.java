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
import io.routegateway.core.identity.Principal;
import io.routegateway.state.identity.CurrentPrincipal;
import io.routegateway.state.spend.SpendView;
import io.routegateway.state.web.AdminApi;
import io.routegateway.state.web.AdminCodes;
import io.routegateway.state.web.AdminException;
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
    private final CurrentPrincipal current;

    AccessKeyResource(AccessKeyAdminService service, CurrentPrincipal current) {
        this.service = service;
        this.current = current;
    }

    /**
     * A team role lists, creates and moves keys of its own team only: a listing is cut to the team, a
     * create must name the team, and a PATCH may not move a key to another team (403 {@code
     * forbidden}); its limits stay within the team's (400 {@code validation.limits}). Which key ids a
     * team role reaches at all is {@code EndpointGuard}'s.
     */
    private void requireOwnTeam(JsonBody<AccessKeyInput> body, boolean creating) {
        Principal principal = current.principal();
        if (!principal.role().teamScoped()) {
            return;
        }
        boolean sent = body.raw().has("team_id");
        if ((creating || sent) && !principal.teamId().equals(body.value().teamId())) {
            throw new AdminException(
                    403, AdminCodes.FORBIDDEN, "a team role manages the AccessKeys of its own team only (team_id)");
        }
    }

    /** A team role's writes keep a key's limits within its team's. */
    private boolean principalHasTeam() {
        return current.onlyTeam() != null;
    }

    @GET
    @Operation(summary = "List AccessKeys (never the key or its hash)")
    public Uni<List<AccessKeyView>> list() {
        Principal principal = current.principal();
        if (!principal.role().teamScoped()) {
            return service.list();
        }
        return service.list()
                .map(all -> all.stream()
                        .filter(key -> principal.teamId().equals(key.teamId()))
                        .toList());
    }

    @POST
    @Operation(summary = "Create an AccessKey; the answer carries the plaintext key, once")
    public Uni<RestResponse<CreatedAccessKey>> create(
            @RequestBody(content = @Content(schema = @Schema(implementation = AccessKeyInput.class))) JsonNode body) {
        JsonBody<AccessKeyInput> input = JsonBody.read(body, AccessKeyInput.class);
        requireOwnTeam(input, true);
        return service.create(input, principalHasTeam())
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
        JsonBody<AccessKeyInput> input = JsonBody.read(body, AccessKeyInput.class);
        requireOwnTeam(input, false);
        return service.update(id, input, principalHasTeam());
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
