package io.routegateway.state.identity;

import java.time.Clock;
import java.time.ZoneOffset;
import java.util.Iterator;
import java.util.function.Supplier;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.routegateway.core.identity.AdminEndpoint;
import io.routegateway.core.identity.AuditDiff;
import io.routegateway.core.identity.Principal;
import io.routegateway.core.identity.ServiceWrites;
import io.routegateway.core.json.Json;
import io.routegateway.state.repository.AuditEntity;
import io.routegateway.state.repository.AuditRepository;
import io.routegateway.state.web.AdminException;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import org.hibernate.reactive.mutiny.Mutiny;

/**
 * Appends an audit entry to every admin write, inside the write's own transaction ({@code
 * pool/AdminWrites}): the entry and the change commit together or not at all. It reads the
 * resource's view before and after the work ({@link AuditedResource}) and records the changed fields
 * with secrets redacted ({@link AuditDiff}), who ({@link Principal}: subject and how), when, the
 * request id, and the method and path. Work outside an admin request (recovery, OAuth refresh,
 * outcomes) is not an admin write and is not recorded by {@link #around}; the writes a service
 * makes by itself are recorded by {@link #service}, in their own transaction, attributed to the
 * service (route-core {@link ServiceWrites}).
 */
@ApplicationScoped
public class AuditTrail {

    private final CurrentPrincipal current;
    private final Instance<AuditedResource> resources;
    private final AuditRepository audit;
    private final Clock clock;

    AuditTrail(CurrentPrincipal current, Instance<AuditedResource> resources, AuditRepository audit, Clock clock) {
        this.current = current;
        this.resources = resources;
        this.audit = audit;
        this.clock = clock;
    }

    /** Runs {@code work} (inside a transaction) and, for an admin write, appends its entry in that transaction. */
    public <T> Uni<T> around(Supplier<Uni<T>> work) {
        AdminEndpoint endpoint = activeWrite();
        if (endpoint == null) {
            return work.get();
        }
        AuditedResource reader = reader(endpoint.resourceType());
        String pathId = current.resourceId();
        boolean singleton =
                !endpoint.template().contains("{id}") && endpoint.method().equals("PATCH");
        Uni<JsonNode> before = pathId == null && !singleton ? Uni.createFrom().nullItem() : read(reader, pathId);
        // the before view's reads must not stay in the session: the work would meet its own rows
        // there (a link it deletes in bulk and inserts again), so the session is cleared before it runs
        return before.call(was -> Panache.getSession().invoke(Mutiny.Session::clear))
                .flatMap(was -> work.get().flatMap(result -> {
                    String id = pathId != null ? pathId : singleton ? null : idOf(result);
                    Uni<JsonNode> after =
                            id == null && !singleton ? Uni.createFrom().nullItem() : read(reader, id);
                    return after.flatMap(is -> append(endpoint, id, was, is)).replaceWith(result);
                }));
    }

    /**
     * For an admin write through the Vert.x SQL client (webhooks): appends its entry with {@code
     * connection}, inside the transaction the caller holds on it. Nothing outside an admin write.
     *
     * @param before the view before (null: it did not exist)
     * @param after the view after (null: it no longer exists)
     */
    public Uni<Void> appendWith(SqlConnection connection, String id, Object before, Object after) {
        AdminEndpoint endpoint = activeWrite();
        if (endpoint == null) {
            return Uni.createFrom().voidItem();
        }
        AuditEntity row = entry(endpoint, id, json(before), json(after));
        return connection
                .preparedQuery("INSERT INTO audit_log (occurred_at, subject, via, token_id, method, path,"
                        + " resource_type, resource_id, before_json, after_json, request_id)"
                        + " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)")
                .execute(Tuple.tuple()
                        .addValue(row.occurredAt.atOffset(ZoneOffset.UTC))
                        .addValue(row.subject)
                        .addValue(row.via)
                        .addValue(row.tokenId)
                        .addValue(row.method)
                        .addValue(row.path)
                        .addValue(row.resourceType)
                        .addValue(row.resourceId)
                        .addValue(row.beforeJson)
                        .addValue(row.afterJson)
                        .addValue(row.requestId))
                .replaceWithVoid();
    }

    /**
     * Appends the entry of a service's own write ({@link ServiceWrites}) in the caller's transaction
     * (the current Panache session's): the entry and the change commit together or not at all.
     * Nothing for a null entry.
     */
    public Uni<Void> service(ServiceWrites.Entry entry) {
        if (entry == null) {
            return Uni.createFrom().voidItem();
        }
        AuditDiff.Change change = AuditDiff.of(entry.before(), entry.after());
        AuditEntity row = new AuditEntity();
        row.occurredAt = clock.instant();
        row.subject = entry.principal().subject();
        row.via = entry.principal().via().wire();
        row.tokenId = null;
        row.method = ServiceWrites.METHOD;
        row.path = entry.action();
        row.resourceType = entry.resourceType();
        row.resourceId = entry.resourceId();
        row.beforeJson = change.before() == null ? null : change.before().toString();
        row.afterJson = change.after() == null ? null : change.after().toString();
        row.requestId = entry.requestId();
        return audit.persist(row).replaceWithVoid();
    }

    private static JsonNode json(Object view) {
        return view == null ? null : Json.MAPPER.valueToTree(view);
    }

    private AdminEndpoint activeWrite() {
        try {
            if (!current.isAdminRequest()) {
                return null;
            }
            AdminEndpoint endpoint = current.endpoint();
            return endpoint != null && endpoint.write() ? endpoint : null;
        } catch (jakarta.enterprise.context.ContextNotActiveException e) {
            // no request: the service's own work
            return null;
        }
    }

    private AuditedResource reader(String type) {
        for (AuditedResource resource : resources) {
            if (resource.type().equals(type)) {
                return resource;
            }
        }
        return null;
    }

    private static Uni<JsonNode> read(AuditedResource reader, String id) {
        if (reader == null) {
            return Uni.createFrom().nullItem();
        }
        return reader.current(id)
                .map(view -> view == null ? null : (JsonNode) Json.MAPPER.valueToTree(view))
                .onFailure(failure -> failure instanceof AdminException admin && admin.status() == 404)
                .recoverWithNull();
    }

    /** The id of what a create answered: its {@code id}, or the {@code id} of its one nested view. */
    static String idOf(Object result) {
        if (result == null) {
            return null;
        }
        Object body =
                result instanceof org.jboss.resteasy.reactive.RestResponse<?> response ? response.getEntity() : result;
        JsonNode node = Json.MAPPER.valueToTree(body);
        if (node == null || !node.isObject()) {
            return null;
        }
        if (node.path("id").isTextual()) {
            return node.get("id").asText();
        }
        for (Iterator<JsonNode> values = node.elements(); values.hasNext(); ) {
            JsonNode value = values.next();
            if (value.isObject() && value.path("id").isTextual()) {
                return value.get("id").asText();
            }
        }
        return null;
    }

    private Uni<Void> append(AdminEndpoint endpoint, String id, JsonNode before, JsonNode after) {
        return audit.persist(entry(endpoint, id, before, after)).replaceWithVoid();
    }

    private AuditEntity entry(AdminEndpoint endpoint, String id, JsonNode before, JsonNode after) {
        Principal principal = current.principal();
        AuditDiff.Change change = AuditDiff.of(before, after);
        AuditEntity row = new AuditEntity();
        row.occurredAt = clock.instant();
        row.subject = principal.subject();
        row.via = principal.via().wire();
        row.tokenId = principal.tokenId();
        row.method = endpoint.method();
        row.path = current.path() == null ? endpoint.template() : current.path();
        row.resourceType = endpoint.resourceType();
        row.resourceId = id;
        row.beforeJson = change.before() == null ? null : change.before().toString();
        row.afterJson = change.after() == null ? null : change.after().toString();
        row.requestId = current.requestId();
        return row;
    }
}
