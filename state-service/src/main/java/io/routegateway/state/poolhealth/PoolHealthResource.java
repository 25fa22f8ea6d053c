package io.routegateway.state.poolhealth;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import io.routegateway.state.web.AdminApi;
import io.smallrye.mutiny.Uni;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

@Path(AdminApi.BASE + "/health")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "health", description = "Pool overview: status tags, badges, unavailable models, reminders")
public class PoolHealthResource {

    private final PoolHealthService service;

    PoolHealthResource(PoolHealthService service) {
        this.service = service;
    }

    @GET
    @Operation(summary = "Every active credential's health as the Health tab shows it")
    public Uni<PoolHealthView> overview() {
        return service.overview();
    }
}
