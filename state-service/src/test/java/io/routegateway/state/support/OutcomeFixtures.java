package io.routegateway.state.support;

import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.function.Supplier;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.vertx.VertxContextSupport;
import io.routegateway.core.crypto.SecretBox;
import io.routegateway.core.event.CredentialEvent;
import io.routegateway.core.json.Json;
import io.routegateway.state.repository.CredentialEntity;
import io.routegateway.state.repository.CredentialModelEntity;
import io.routegateway.state.repository.TimelineEntity;
import io.smallrye.mutiny.Uni;

/** Test data for the event pipeline: credential rows written directly, events, and reads back. */
public final class OutcomeFixtures {

    /** Two mapped models, cooldown on at the default 10 s: the spec's "primary" account. */
    public static final String PRIMARY_CONFIG = "{\"model_mappings\":["
            + "{\"from\":\"gpt-5.6-sol\",\"to\":\"upstream-sol\"},"
            + "{\"from\":\"glm-5.3\",\"to\":\"upstream-glm\"}],"
            + "\"failure_policy\":{\"cooldown_enabled\":true,\"cooldown_seconds\":10}}";

    private OutcomeFixtures() {}

    /** Runs a reactive unit of work on a Vert.x context and waits for it. */
    public static <T> T await(Supplier<Uni<T>> work) {
        try {
            return VertxContextSupport.subscribeAndAwait(work);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    public static <T> T inTransaction(Supplier<Uni<T>> work) {
        return await(() -> Panache.withTransaction(work));
    }

    public static <T> T inSession(Supplier<Uni<T>> work) {
        return await(() -> Panache.withSession(work));
    }

    /** Inserts an api credential on the openai platform with the given config and a sealed secret. */
    public static String createCredential(SecretBox secretBox, String configJson, String clearSecret) {
        String id = "cred-" + UUID.randomUUID();
        CredentialEntity row = new CredentialEntity();
        row.id = id;
        row.name = "primary " + id.substring(5, 13);
        row.platform = "openai";
        row.kind = "api";
        row.baseUrl = "https://relay.example.test/v1";
        row.encryptedSecret = secretBox.seal(row.secretBinding(), clearSecret);
        row.configJson = configJson;
        row.createdAt = Instant.parse("2026-01-01T00:00:00Z");
        row.updatedAt = row.createdAt;
        inTransaction(() -> row.persist());
        return id;
    }

    public static CredentialEntity credential(String id) {
        return inSession(() -> CredentialEntity.<CredentialEntity>findById(id));
    }

    public static List<CredentialModelEntity> models(String id) {
        return inSession(() ->
                CredentialModelEntity.<CredentialModelEntity>list("routeCredentialId = ?1 order by modelKey", id));
    }

    public static List<TimelineEntity> timeline(String id) {
        return inSession(() -> TimelineEntity.<TimelineEntity>list("credentialId = ?1 order by id", id));
    }

    public static long processed(UUID eventId) {
        return inSession(() -> io.routegateway.state.repository.ProcessedEventEntity.count("eventId", eventId));
    }

    public static CredentialEvent.TransientFailureRecorded failure(String credentialId, Instant at, String modelKey) {
        return new CredentialEvent.TransientFailureRecorded(
                UUID.randomUUID(),
                credentialId,
                at,
                modelKey,
                "upstream_status",
                429,
                "upstream returned 429",
                "{\"error\":{\"message\":\"rate limited\"}}");
    }

    public static CredentialEvent.AttemptSucceeded success(String credentialId, Instant at, String modelKey) {
        return new CredentialEvent.AttemptSucceeded(UUID.randomUUID(), credentialId, at, modelKey);
    }

    public static String json(Object event) {
        try {
            return Json.MAPPER.writeValueAsString(event);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
