package io.routegateway.state.usage;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.UriInfo;

import io.routegateway.core.usage.CredentialTraffic;
import io.routegateway.core.usage.Overview;
import io.routegateway.state.web.AdminApi;
import io.smallrye.mutiny.Uni;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** The console's landing numbers. */
@Path(AdminApi.BASE)
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "requests", description = "Request logs and usage statistics")
public class OverviewResource {

    private final OverviewService service;
    private final CredentialTrafficService credentials;

    OverviewResource(OverviewService service, CredentialTrafficService credentials) {
        this.service = service;
        this.credentials = credentials;
    }

    @GET
    @Path("/overview")
    @Operation(
            summary = "Client traffic of the last minutes (probes left out): requests and tokens per minute, success"
                    + " rate, failovers, latency p50/p95 (histogram bucket bounds), mean time to first byte, top"
                    + " model keys and access keys")
    public Uni<Overview> overview(
            @Parameter(description = "5m, 15m (default), 1h, 6h or 24h") @QueryParam("window") String window) {
        return service.overview(window);
    }

    @GET
    @Path("/overview/credentials")
    @Operation(
            summary = "Client traffic per credential over a recent window (probes left out), from the per-minute"
                    + " rollups: requests, failures, success rate, mean latency, latency p50/p95 (histogram bucket"
                    + " bounds); only credentials with requests in the window are listed")
    public Uni<CredentialTraffic> credentials(
            @Context UriInfo uri,
            @Parameter(description = "5m, 15m, 1h (default), 6h or 24h") @QueryParam("window") String window) {
        return credentials.traffic(uri.getQueryParameters().keySet(), window);
    }
}
