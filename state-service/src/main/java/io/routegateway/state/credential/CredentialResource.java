package io.routegateway.state.credential;

import java.util.List;

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
import io.routegateway.state.recovery.ModelTestInput;
import io.routegateway.state.web.AdminApi;
import io.routegateway.state.web.AdminCodes;
import io.routegateway.state.web.AdminException;
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

@Path(AdminApi.BASE + "/credentials")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "credentials", description = "Upstream credentials: configuration, account actions, test, timeline")
public class CredentialResource {

    private final CredentialAdminService admin;
    private final CredentialActionService actions;

    CredentialResource(CredentialAdminService admin, CredentialActionService actions) {
        this.admin = admin;
        this.actions = actions;
    }

    @GET
    @Operation(summary = "List credentials (the secret is never returned)")
    public Uni<List<CredentialView>> list(
            @Parameter(description = "false (default): active; true: archived only; all: both") @QueryParam("archived")
                    String archived) {
        return admin.list(archivedFilter(archived));
    }

    @POST
    @Operation(summary = "Create a credential; the secret is sealed at rest and write-only")
    public Uni<RestResponse<CredentialView>> create(
            @RequestBody(content = @Content(schema = @Schema(implementation = CredentialInput.class))) JsonNode body) {
        return admin.create(JsonBody.read(body, CredentialInput.class))
                .map(created -> RestResponse.status(RestResponse.Status.CREATED, created));
    }

    @GET
    @Path("/{id}")
    @Operation(summary = "One credential with its account state, badges and reminders")
    public Uni<CredentialView> get(@PathParam("id") String id) {
        return admin.get(id);
    }

    @PATCH
    @Path("/{id}")
    @Operation(summary = "Update a credential: only the fields sent change")
    public Uni<CredentialView> update(
            @PathParam("id") String id,
            @RequestBody(content = @Content(schema = @Schema(implementation = CredentialInput.class))) JsonNode body) {
        return admin.update(id, JsonBody.read(body, CredentialInput.class));
    }

    @DELETE
    @Path("/{id}")
    @Operation(summary = "Archive a credential (purge=true deletes it and publishes a tombstone)")
    public Uni<RestResponse<Void>> delete(@PathParam("id") String id, @QueryParam("purge") String purge) {
        return admin.delete(id, "true".equals(purge)).map(ok -> RestResponse.noContent());
    }

    @POST
    @Path("/{id}/pause")
    @Operation(summary = "Pause the account (automation never lifts a pause)")
    public Uni<CredentialView> pause(@PathParam("id") String id) {
        return actions.pause(id);
    }

    @POST
    @Path("/{id}/resume")
    @Operation(summary = "Lift an account pause")
    public Uni<CredentialView> resume(@PathParam("id") String id) {
        return actions.resume(id);
    }

    @POST
    @Path("/{id}/restore")
    @Operation(summary = "Restore after verifying the credential: error, warning or revoked back to ok")
    public Uni<CredentialView> restore(@PathParam("id") String id) {
        return actions.restore(id);
    }

    @POST
    @Path("/{id}/test")
    @Operation(
            summary = "Run a model connectivity test now (delegated to recovery-service); passing recovers the account")
    public Uni<JsonNode> test(
            @PathParam("id") String id,
            @RequestBody(required = false, content = @Content(schema = @Schema(implementation = ModelTestInput.class)))
                    JsonNode body) {
        String model = null;
        if (body != null && !body.isNull()) {
            model = JsonBody.read(body, ModelTestInput.class).value().model();
        }
        return actions.test(id, model);
    }

    @GET
    @Path("/{id}/timeline")
    @Operation(summary = "The credential's health timeline, newest first")
    public Uni<Page<TimelineEntryView>> timeline(
            @PathParam("id") String id, @QueryParam("limit") String limit, @QueryParam("cursor") String cursor) {
        return admin.timeline(id, limit, cursor);
    }

    private static Boolean archivedFilter(String archived) {
        if (archived == null || archived.isBlank() || archived.equals("false")) {
            return Boolean.FALSE;
        }
        if (archived.equals("true")) {
            return Boolean.TRUE;
        }
        if (archived.equals("all")) {
            return null;
        }
        throw AdminException.invalid(AdminCodes.QUERY, "archived must be true, false or all");
    }
}
