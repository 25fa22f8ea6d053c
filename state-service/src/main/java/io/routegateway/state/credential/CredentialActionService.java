package io.routegateway.state.credential;

import java.time.Clock;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.routegateway.core.event.CredentialEvent;
import io.routegateway.core.event.EventIds;
import io.routegateway.core.model.CredentialKind;
import io.routegateway.core.model.ModelKeys;
import io.routegateway.core.model.ModelMapping;
import io.routegateway.core.model.ModelMappings;
import io.routegateway.core.model.Platform;
import io.routegateway.state.outcome.CredentialEventService;
import io.routegateway.state.outcome.UnknownCredentialException;
import io.routegateway.state.pool.SecretRedactor;
import io.routegateway.state.recovery.RecoveryClient;
import io.routegateway.state.repository.CredentialEntity;
import io.routegateway.state.repository.CredentialModelEntity;
import io.routegateway.state.repository.CredentialModelRepository;
import io.routegateway.state.repository.StateRows;
import io.routegateway.state.web.AdminCodes;
import io.routegateway.state.web.AdminException;
import io.routegateway.state.web.Inputs;
import io.smallrye.mutiny.Uni;
import org.eclipse.microprofile.faulttolerance.exceptions.TimeoutException;
import org.jboss.resteasy.reactive.RestResponse;

/**
 * The manual health actions. Each one is a {@link CredentialEvent} applied through {@link
 * CredentialEventService#apply} — the same transition, row lock, timeline and outbox as an outcome
 * from a gateway — so a manual action can never disagree with automatic ones. The credential test is
 * delegated to recovery-service, which publishes the test's outcome like any other.
 */
@ApplicationScoped
public class CredentialActionService {

    private final CredentialModelRepository models;
    private final CredentialEventService events;
    private final CredentialAdminService credentialAdmin;
    private final RecoveryClient recovery;
    private final SecretRedactor redactor;
    private final Clock clock;

    CredentialActionService(
            CredentialModelRepository models,
            CredentialEventService events,
            CredentialAdminService credentialAdmin,
            RecoveryClient recovery,
            SecretRedactor redactor,
            Clock clock) {
        this.models = models;
        this.events = events;
        this.credentialAdmin = credentialAdmin;
        this.recovery = recovery;
        this.redactor = redactor;
        this.clock = clock;
    }

    /** The 模型状态 section: every known model with its status, reason, cooldown and last failure. */
    public Uni<List<ModelView>> models(String credentialId) {
        return Panache.withSession(() -> credentialAdmin
                .existing(credentialId)
                .flatMap(row -> models.listForCredential(credentialId)
                        .map(rows -> CredentialAdminService.modelViews(
                                row, rows, redactor.forCredential(row), clock.instant()))));
    }

    /** 暂停: the model is hard-excluded from selection until resumed (a healthy model can be paused too). */
    public Uni<List<ModelView>> pauseModel(String credentialId, String modelKey) {
        return modelAction(credentialId, modelKey, CredentialEvent.ModelPaused::new);
    }

    /** 恢复: lifts the user's pause; a row with nothing else to remember goes away. */
    public Uni<List<ModelView>> resumeModel(String credentialId, String modelKey) {
        return modelAction(credentialId, modelKey, CredentialEvent.ModelResumed::new);
    }

    /** 解除: drops the model's cooldown and error state; a pause stays. */
    public Uni<List<ModelView>> clearModel(String credentialId, String modelKey) {
        return modelAction(credentialId, modelKey, CredentialEvent.ModelCleared::new);
    }

    /** 全部解除: clears every model with something to clear; skips paused and healthy ones. */
    public Uni<List<ModelView>> clearAllModels(String credentialId) {
        return apply(new CredentialEvent.AllModelsCleared(EventIds.next(), credentialId, clock.instant()))
                .flatMap(result -> models(credentialId));
    }

    /** Pauses the account (a revoked one stays revoked). */
    public Uni<CredentialView> pause(String credentialId) {
        return apply(new CredentialEvent.CredentialPaused(EventIds.next(), credentialId, clock.instant()))
                .flatMap(result -> credentialAdmin.get(credentialId));
    }

    /** Lifts an account pause. */
    public Uni<CredentialView> resume(String credentialId) {
        return apply(new CredentialEvent.CredentialResumed(EventIds.next(), credentialId, clock.instant()))
                .flatMap(result -> credentialAdmin.get(credentialId));
    }

    /** After verifying the credential by hand: error / warning / revoked back to ok, account traces cleared. */
    public Uni<CredentialView> restore(String credentialId) {
        return apply(new CredentialEvent.CredentialRestored(EventIds.next(), credentialId, clock.instant()))
                .flatMap(result -> credentialAdmin.get(credentialId));
    }

    /**
     * Runs a model connectivity test through recovery-service and returns its answer as it is. 404
     * and 400 from recovery-service keep their status; no answer in time, or no connection, is 503
     * {@code recovery_unavailable}; a server error there, or its refusal of the
     * internal token (401: the two services hold different tokens), is 502 {@code recovery_failed}.
     */
    public Uni<JsonNode> test(String credentialId, String model) {
        String requested = blankToNull(model) == null ? null : Inputs.modelName(model, AdminCodes.MODELS, "model");
        return Panache.withSession(() -> credentialAdmin.existing(credentialId))
                .flatMap(row -> recovery.test(credentialId, requested)
                        .onFailure()
                        .transform(CredentialActionService::unavailable))
                .map(CredentialActionService::passOn);
    }

    private Uni<List<ModelView>> modelAction(String credentialId, String modelKeySent, ModelEventFactory factory) {
        String modelKey = Inputs.modelName(modelKeySent, AdminCodes.MODEL_KEY, "the model key");
        return Panache.withSession(() -> credentialAdmin
                        .existing(credentialId)
                        .flatMap(row -> models.listForCredential(credentialId)
                                .invoke(rows -> requireModelOf(row, rows, modelKey))))
                .flatMap(rows -> apply(factory.create(EventIds.next(), credentialId, clock.instant(), modelKey)))
                .flatMap(result -> models(credentialId));
    }

    private Uni<?> apply(CredentialEvent event) {
        return events.apply(event)
                .onFailure(UnknownCredentialException.class)
                .transform(e -> AdminException.notFound("credential", event.credentialId()));
    }

    /**
     * The key must be one the 模型状态 section lists (a mapped key or the baseline, or any key with a
     * row), or a name the credential serves as itself (pass-through catch-all, official and
     * mapping-less accounts). A requested alias is not a key: pausing it would park nothing.
     */
    private static void requireModelOf(CredentialEntity row, List<CredentialModelEntity> rows, String modelKey) {
        List<ModelMapping> mappings = ModelMappings.fromConfigJson(StateRows.configJson(row));
        CredentialKind kind = CredentialKind.fromWire(row.kind);
        Set<String> rowKeys = new HashSet<>();
        rows.forEach(model -> rowKeys.add(model.modelKey));
        boolean listed = ModelKeys.listedModelKeys(Platform.fromWire(row.platform), kind, mappings, rowKeys)
                .contains(modelKey);
        boolean servedAsItself = ModelKeys.modelKey(kind, mappings, modelKey)
                .map(modelKey::equals)
                .orElse(false);
        if (!listed && !servedAsItself) {
            throw new AdminException(
                    404,
                    AdminCodes.NOT_FOUND,
                    "credential " + row.id + " has no model key " + Inputs.echo(modelKey)
                            + ModelKeys.modelKey(kind, mappings, modelKey)
                                    .map(key -> " (requests for it are charged to " + key + ")")
                                    .orElse(""));
        }
    }

    private static JsonNode passOn(RestResponse<JsonNode> response) {
        int status = response.getStatus();
        if (status >= 200 && status < 300) {
            return response.getEntity();
        }
        JsonNode body = errorBody(response);
        String code = body == null ? null : body.path("error").path("code").asText(null);
        String message =
                body == null ? null : body.path("error").path("message").asText(null);
        if (status == 404) {
            throw new AdminException(
                    404, AdminCodes.NOT_FOUND, message == null ? "recovery-service: not found" : message);
        }
        if (status == 400) {
            throw new AdminException(
                    400,
                    code == null ? "validation.model" : code,
                    message == null ? "recovery-service refused the test" : message);
        }
        if (status == 401) {
            throw new AdminException(
                    502,
                    AdminCodes.RECOVERY_FAILED,
                    "recovery-service refused state-service's internal token: route.internal-token differs"
                            + " between the two");
        }
        throw new AdminException(502, AdminCodes.RECOVERY_FAILED, "recovery-service answered HTTP " + status);
    }

    /** The error body recovery-service sent, or null when it is not JSON. */
    private static JsonNode errorBody(RestResponse<JsonNode> response) {
        try {
            return response.readEntity(JsonNode.class);
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** Whatever kept the answer from arriving: refused or reset connection, unknown host, the timeout. */
    private static AdminException unavailable(Throwable failure) {
        String message = failure instanceof TimeoutException
                ? "recovery-service did not answer the test in time"
                : "recovery-service is not reachable (" + failure.getClass().getSimpleName() + ")";
        return new AdminException(503, AdminCodes.RECOVERY_UNAVAILABLE, message);
    }

    private static String blankToNull(String text) {
        return text == null || text.isBlank() ? null : text.strip();
    }

    @FunctionalInterface
    private interface ModelEventFactory {
        CredentialEvent create(UUID eventId, String credentialId, Instant occurredAt, String modelKey);
    }
}
