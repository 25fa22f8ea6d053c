package io.routegateway.state.credential;

import java.util.List;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import io.routegateway.state.web.AdminApi;
import io.smallrye.mutiny.Uni;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * The 模型状态 section of a credential. Model keys are upstream names and may contain {@code /}; each
 * action answers with the whole section as it is afterwards.
 */
@Path(AdminApi.BASE + "/credentials/{id}/models")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "models", description = "Per-model status of a credential: pause, resume, clear, clear all")
public class CredentialModelResource {

    private final CredentialActionService actions;

    CredentialModelResource(CredentialActionService actions) {
        this.actions = actions;
    }

    @GET
    @Operation(summary = "Every known model, never-failed ones included, with status, reason, cooldown, last failure")
    public Uni<List<ModelView>> list(@PathParam("id") String id) {
        return actions.models(id);
    }

    @POST
    @Path("/clear-all")
    @Operation(summary = "全部解除: clear every model with something to clear (skips paused and healthy)")
    public Uni<List<ModelView>> clearAll(@PathParam("id") String id) {
        return actions.clearAllModels(id);
    }

    @POST
    @Path("/{modelKey: .+}/pause")
    @Operation(summary = "暂停 one model (also a healthy one)")
    public Uni<List<ModelView>> pause(@PathParam("id") String id, @PathParam("modelKey") String modelKey) {
        return actions.pauseModel(id, modelKey);
    }

    @POST
    @Path("/{modelKey: .+}/resume")
    @Operation(summary = "恢复 one paused model")
    public Uni<List<ModelView>> resume(@PathParam("id") String id, @PathParam("modelKey") String modelKey) {
        return actions.resumeModel(id, modelKey);
    }

    @POST
    @Path("/{modelKey: .+}/clear")
    @Operation(summary = "解除 one model's cooldown and error state (a pause stays)")
    public Uni<List<ModelView>> clear(@PathParam("id") String id, @PathParam("modelKey") String modelKey) {
        return actions.clearModel(id, modelKey);
    }
}
