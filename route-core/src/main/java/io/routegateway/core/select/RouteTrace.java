package io.routegateway.core.select;

import java.time.Instant;
import java.util.List;

/**
 * Why a route went where it went, for the admin route check and for logging a refusal: the access
 * decision, then every group (the key's scope first, in the key's order, then the groups outside
 * it) with its verdict, and for every group that was evaluated every credential of its pool with
 * the step that decided it. Built only when {@code trace} is requested.
 *
 * @param accessRefusal the key refusal, or null when the key was allowed
 * @param groups per-group decisions
 * @param outcome the final reason code, null when a credential was selected
 */
public record RouteTrace(ReasonCode accessRefusal, List<GroupTrace> groups, ReasonCode outcome) {

    public RouteTrace {
        groups = List.copyOf(groups);
    }

    /**
     * {@code SELECTED}: chosen. {@code ELIGIBLE}: would have been usable, not chosen. {@code
     * COOLING}: in the cooling bucket, not chosen. {@code DROPPED}: filtered out, see the reason.
     * {@code NOT_EVALUATED}: a candidate group after the one that served the request.
     */
    public enum Verdict {
        SELECTED,
        ELIGIBLE,
        COOLING,
        DROPPED,
        NOT_EVALUATED
    }

    /**
     * @param reason why the group was dropped (a {@code group_*} code, {@code no_available_group}
     *     when it does not expose the model, {@code no_route_target} when the key names an unknown
     *     group) or why its pool yielded nothing (a pool code); null when selected or not evaluated
     * @param failoverPosition 0-based position in the failover order, -1 when not a candidate
     * @param credentials empty unless the group's pool was evaluated
     */
    public record GroupTrace(
            String groupId,
            String groupName,
            Verdict verdict,
            ReasonCode reason,
            String detail,
            int failoverPosition,
            List<CredentialTrace> credentials) {

        public GroupTrace {
            credentials = List.copyOf(credentials);
        }
    }

    /**
     * @param step the selection step that decided: 1 load candidates, 2 platform rule, 3 model
     *     filter, 5 partition (tried / weight 0 / paused / error / full / cooling / eligible), 6 the
     *     chooser (selected)
     * @param reason the code for a drop ({@code credential_*}, {@code
     *     route_pool.no_enabled_credentials} for the platform rule, {@code route_pool.model_unmatched},
     *     {@code route_pool.model_unavailable}), {@code credential_cooldown} for cooling (also for a
     *     fallback pick), null for eligible and selected
     * @param modelKey the (credential, model key) pair's key, null when the model filter was not
     *     reached or the request has no model
     * @param recoveryAt for cooling: the later of the account and model timestamps
     * @param priority the credential's priority tier (lower number first)
     * @param weight the effective weight selection uses (manual, or automatic from recent stats)
     */
    public record CredentialTrace(
            String credentialId,
            String credentialName,
            int step,
            Verdict verdict,
            ReasonCode reason,
            String detail,
            String modelKey,
            String upstreamModel,
            Instant recoveryAt,
            int priority,
            int weight) {}
}
