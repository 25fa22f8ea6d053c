package io.routegateway.state.recovery;

import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;

import com.fasterxml.jackson.databind.JsonNode;
import io.smallrye.mutiny.Uni;
import org.jboss.resteasy.reactive.RestResponse;

/** recovery-service's model connectivity test API; built by {@link RecoveryClient}. */
@Path("/recovery/v1/credentials")
public interface RecoveryRestClient {

    /**
     * Runs one model test now and publishes its outcome; the answer is passed on as it is.
     *
     * @param authorization the internal token's header value ({@code InternalToken#authorization()})
     */
    @POST
    @Path("/{id}/test")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    Uni<RestResponse<JsonNode>> test(
            @HeaderParam(HttpHeaders.AUTHORIZATION) String authorization,
            @PathParam("id") String credentialId,
            ModelTestInput body);
}
