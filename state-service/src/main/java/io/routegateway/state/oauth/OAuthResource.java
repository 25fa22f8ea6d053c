package io.routegateway.state.oauth;

import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import com.fasterxml.jackson.databind.JsonNode;
import io.routegateway.state.web.AdminApi;
import io.smallrye.mutiny.Uni;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** The authorization of an official credential: its auth view, pasted material, the authorization-code flow. */
@Path(AdminApi.BASE + "/credentials/{id}/oauth")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(
        name = "oauth",
        description = "Official accounts: authorization state, pasting the CLI credentials file, the PKCE flow")
public class OAuthResource {

    private final OAuthAdminService admin;

    OAuthResource(OAuthAdminService admin) {
        this.admin = admin;
    }

    @GET
    @Operation(
            summary = "The authorization of an official credential (never a token); every field null when it"
                    + " holds a static token")
    public Uni<OAuthAdminView> get(@PathParam("id") String id) {
        return admin.view(id);
    }

    @PUT
    @Operation(
            summary = "Store the CLI credentials file or the token fields (sealed, write-only); also re-authorizes"
                    + " in place: a revoked account comes back")
    public Uni<OAuthAdminView> put(
            @PathParam("id") String id,
            @RequestBody(content = @Content(schema = @Schema(implementation = OAuthInputs.Material.class)))
                    JsonNode body) {
        return admin.put(id, body);
    }

    @POST
    @Path("/authorize")
    @Operation(
            summary = "Start the authorization-code flow with PKCE: the URL to open; the state is valid for 10"
                    + " minutes, once")
    public Uni<AuthorizeStartView> authorize(
            @PathParam("id") String id,
            @RequestBody(
                            required = false,
                            content = @Content(schema = @Schema(implementation = OAuthInputs.Authorize.class)))
                    JsonNode body) {
        return admin.authorize(id, body);
    }

    @POST
    @Path("/callback")
    @Operation(
            summary = "Complete the authorization-code flow with the callback URL (or the code and state): the code"
                    + " is exchanged at the platform's token endpoint and the tokens stored; 502 oauth_exchange_failed"
                    + " when it refuses")
    public Uni<OAuthAdminView> callback(
            @PathParam("id") String id,
            @RequestBody(content = @Content(schema = @Schema(implementation = OAuthInputs.Callback.class)))
                    JsonNode body) {
        return admin.callback(id, body);
    }
}
