package io.routegateway.state.webhook;

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

@Path(AdminApi.BASE + "/webhooks")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(
        name = "webhooks",
        description = "Outgoing notifications of state changes that need a person, and their delivery log")
public class WebhookResource {

    private final WebhookAdminService service;

    WebhookResource(WebhookAdminService service) {
        this.service = service;
    }

    @GET
    @Operation(summary = "List webhook endpoints, oldest first (secrets are never returned)")
    public Uni<Page<WebhookView>> list() {
        return service.list();
    }

    @POST
    @Operation(
            summary = "Create a webhook endpoint (unknown fields are refused; internal targets only when allow-listed)")
    public Uni<RestResponse<WebhookView>> create(
            @RequestBody(content = @Content(schema = @Schema(implementation = WebhookInput.class))) JsonNode body) {
        return service.create(JsonBody.read(body, WebhookInput.class))
                .map(created -> RestResponse.status(RestResponse.Status.CREATED, created));
    }

    @GET
    @Path("/{id}")
    @Operation(summary = "One webhook endpoint")
    public Uni<WebhookView> get(@PathParam("id") String id) {
        return service.get(id);
    }

    @PATCH
    @Path("/{id}")
    @Operation(
            summary =
                    "Update a webhook endpoint's url, event types, secret, format or enabled (unknown fields are refused)")
    public Uni<WebhookView> update(
            @PathParam("id") String id,
            @RequestBody(content = @Content(schema = @Schema(implementation = WebhookInput.class))) JsonNode body) {
        return service.update(id, JsonBody.read(body, WebhookInput.class));
    }

    @DELETE
    @Path("/{id}")
    @Operation(summary = "Delete a webhook endpoint and its delivery log")
    public Uni<RestResponse<Void>> delete(@PathParam("id") String id) {
        return service.delete(id).map(ok -> RestResponse.noContent());
    }

    @GET
    @Path("/{id}/deliveries")
    @Operation(summary = "The endpoint's deliveries, newest first, a page at a time")
    public Uni<Page<DeliveryView>> deliveries(
            @PathParam("id") String id,
            @Parameter(description = "1..500, default 50") @QueryParam("limit") String limit,
            @Parameter(description = "next_cursor of the previous page") @QueryParam("cursor") String cursor) {
        return service.deliveries(id, limit, cursor);
    }
}
