package io.routegateway.state.settings;

import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.Path;
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

@Path(AdminApi.BASE + "/settings")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "settings", description = "Runtime settings: blacklist threshold, affinity TTL and capacity, model prices")
public class SettingsResource {

    private final SettingsService service;

    SettingsResource(SettingsService service) {
        this.service = service;
    }

    @GET
    @Operation(summary = "The runtime settings")
    public Uni<SettingsView> get() {
        return service.get();
    }

    @PATCH
    @Operation(summary = "Change runtime settings; only the fields sent change, one bad field refuses all")
    public Uni<SettingsView> update(
            @RequestBody(content = @Content(schema = @Schema(implementation = SettingsView.class))) JsonNode body) {
        return service.update(body);
    }
}
