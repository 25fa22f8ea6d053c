package io.routegateway.recovery.rest;

import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import io.routegateway.recovery.probe.ModelTestReport;
import io.routegateway.recovery.probe.ModelTestService;
import io.routegateway.recovery.repository.CredentialRepository;
import io.smallrye.mutiny.Uni;
import org.jboss.resteasy.reactive.RestPath;

/**
 * The model connectivity test, on demand (the admin API's "test" action): runs it now against one
 * account, publishes its outcome like a healthcheck probe does, and answers with the result.
 */
@Path("/recovery/v1/credentials")
public class ModelTestResource {

    /**
     * @param model the requested model name to test; absent for the account's default model
     */
    public record TestRequest(String model) {}

    private final CredentialRepository credentials;
    private final ModelTestService modelTests;

    ModelTestResource(CredentialRepository credentials, ModelTestService modelTests) {
        this.credentials = credentials;
        this.modelTests = modelTests;
    }

    /**
     * 200 with the result whether the test passed or not; 404 {@code credential_not_found} for an
     * unknown or archived id; 400 {@code validation.test_model_not_mapped} for a model the account
     * does not map. Without a model the account's default is tested (every account has one).
     */
    @POST
    @Path("/{id}/test")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Uni<ModelTestReport> test(@RestPath String id, TestRequest request) {
        String model = request == null ? null : request.model();
        return credentials
                .find(id)
                .map(found -> found.filter(credential -> !credential.archived())
                        .orElseThrow(() -> new CredentialNotFoundException(id)))
                .chain(credential -> modelTests.test(credential, model, ModelTestService.Trigger.MANUAL));
    }
}
