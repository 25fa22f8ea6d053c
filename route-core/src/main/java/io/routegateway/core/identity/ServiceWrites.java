package io.routegateway.core.identity;

import java.util.List;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.routegateway.core.event.CredentialEvent;
import io.routegateway.core.json.Json;
import io.routegateway.core.state.HealthChange;

/**
 * The audit entries of the writes a service makes by itself, attributed to the service ({@link
 * Principal#service}): which changes are automation's own and how each is recorded. Changes caused
 * by traffic (a gateway's outcome putting a model into cooling) are the health timeline's, not the
 * audit log's; a person's action is recorded as that person's admin write.
 */
public final class ServiceWrites {

    /** recovery-service's decisions, applied by state-service. */
    public static final Principal RECOVERY = Principal.service("recovery");
    /** state-service's OAuth refresher: token refreshes, expiries, revocations on a refresh. */
    public static final Principal OAUTH_REFRESH = Principal.service("oauth-refresh");

    /** The {@code method} column of a service's entry (an admin write has its HTTP method there). */
    public static final String METHOD = "SERVICE";

    /**
     * One entry.
     *
     * @param principal the service
     * @param action what it did, in the {@code path} column ({@code recovery/scheduled-reactivation}, …)
     * @param resourceType as the admin API's rules name it ({@code credentials})
     * @param resourceId the resource's id
     * @param before the changed fields before (null: none)
     * @param after the changed fields after (null: none)
     * @param requestId what ties the entry to its cause (the event id), never null
     */
    public record Entry(
            Principal principal,
            String action,
            String resourceType,
            String resourceId,
            ObjectNode before,
            ObjectNode after,
            String requestId) {}

    private ServiceWrites() {}

    /**
     * The entry of a recovery event that changed a credential's health: a scheduled reactivation,
     * or an automatic healthcheck that passed (recovery-service's own decisions). Null for any other
     * event (traffic, a person's action) or when nothing changed. The diff names each account or
     * model condition that moved: {@code {"account": "error"}} → {@code {"account": "ok"}}, a model as
     * {@code "model:<key>"}.
     */
    public static Entry recovery(CredentialEvent event, List<HealthChange> changes) {
        String action;
        if (event instanceof CredentialEvent.ScheduledReactivationTriggered) {
            action = "recovery/scheduled-reactivation";
        } else if (event instanceof CredentialEvent.ModelTestSucceeded test && test.automatic()) {
            action = "recovery/healthcheck";
        } else {
            return null;
        }
        if (changes == null || changes.isEmpty()) {
            return null;
        }
        ObjectNode before = Json.MAPPER.createObjectNode();
        ObjectNode after = Json.MAPPER.createObjectNode();
        for (HealthChange change : changes) {
            String field = change.modelKey() == null ? "account" : "model:" + change.modelKey();
            if (!before.has(field)) {
                before.put(field, change.from());
            }
            after.put(field, change.to());
        }
        return new Entry(
                RECOVERY,
                action,
                "credentials",
                event.credentialId(),
                before,
                after,
                event.eventId().toString());
    }

    /**
     * The entry of the OAuth refresher's change to a credential: {@code action} {@code
     * oauth/refreshed}, {@code oauth/expired} or {@code oauth/refresh-failed}; before and after the
     * auth fields that moved (never a token).
     */
    public static Entry oauth(
            String action, String credentialId, ObjectNode before, ObjectNode after, String requestId) {
        return new Entry(OAUTH_REFRESH, action, "credentials", credentialId, before, after, requestId);
    }
}
