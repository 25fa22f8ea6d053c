package io.routegateway.state.repository;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.routegateway.core.json.Json;
import io.smallrye.mutiny.Uni;

/** {@code processed_events}: the idempotency record. */
@ApplicationScoped
public class ProcessedEventRepository implements PanacheRepositoryBase<ProcessedEventEntity, UUID> {

    private static final TypeReference<Map<String, String>> SETTINGS = new TypeReference<>() {};
    private static final TypeReference<List<String>> GROUP_IDS = new TypeReference<>() {};

    /**
     * The outcome of {@link #recordIfNewReading}: whether the id is new, the stored runtime settings
     * (key → value) and the credential's group ids in id order.
     */
    public record Recorded(boolean isNew, Map<String, String> settings, List<String> groupIds) {}

    /**
     * Records the event id in the current transaction (rolled back with it): new, or applied before
     * ({@code ON CONFLICT DO NOTHING}). The same statement reads what applying the event needs besides
     * the locked rows: every stored runtime setting (the transition's blacklist threshold) and the
     * credential's group ids (its snapshot). One round trip instead of three inside the apply
     * transaction, taken under the credential's row lock like the two reads it replaces.
     */
    public Uni<Recorded> recordIfNewReading(UUID eventId, String credentialId, String eventType, Instant appliedAt) {
        return Panache.getSession()
                .flatMap(session -> session.createNativeQuery(
                                "WITH recorded AS (INSERT INTO processed_events"
                                        + " (event_id, credential_id, event_type, applied_at)"
                                        + " VALUES (:id, :credential, :type, :at)"
                                        + " ON CONFLICT (event_id) DO NOTHING RETURNING event_id)"
                                        + " SELECT (SELECT count(*) FROM recorded),"
                                        + " (SELECT CAST(json_object_agg(key, value) AS text) FROM runtime_settings),"
                                        + " (SELECT CAST(json_agg(group_id ORDER BY group_id) AS text)"
                                        + " FROM route_group_credentials WHERE credential_id = :credential)",
                                Object[].class)
                        .setParameter("id", eventId)
                        .setParameter("credential", credentialId)
                        .setParameter("type", eventType)
                        .setParameter("at", appliedAt.toString())
                        .getSingleResult())
                .map(columns -> new Recorded(
                        ((Number) columns[0]).longValue() == 1,
                        columns[1] == null ? Map.of() : parse((String) columns[1], SETTINGS),
                        columns[2] == null ? List.of() : parse((String) columns[2], GROUP_IDS)));
    }

    /** PostgreSQL's own JSON of text values (null when there is no row): unreadable only if the statement is wrong. */
    private static <T> T parse(String json, TypeReference<T> type) {
        try {
            return Json.MAPPER.readValue(json, type);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("unreadable JSON from PostgreSQL", e);
        }
    }
}
