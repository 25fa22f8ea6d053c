package io.routegateway.core.select;

import java.time.Instant;

import io.routegateway.core.event.CredentialSnapshot;
import io.routegateway.core.event.GroupSnapshot;

/** The outcome of {@link Router#route}: a target, or a refusal with its reason code. */
public sealed interface RouteResult permits RouteResult.Selected, RouteResult.Refused {

    /** The decision trace, null unless it was requested. */
    RouteTrace trace();

    /**
     * @param modelKey the key the attempt is charged under, null when the request names no model
     * @param upstreamModel the model name to send upstream, null when the request names no model
     * @param affinityHit chosen because the affinity table remembered it
     * @param fromCoolingFallback every candidate was cooling; this is the soonest-recovering one
     * @param recoveryAt the fallback's recovery time, null unless {@code fromCoolingFallback}
     */
    record Selected(
            GroupSnapshot group,
            CredentialSnapshot credential,
            String modelKey,
            String upstreamModel,
            boolean affinityHit,
            boolean fromCoolingFallback,
            Instant recoveryAt,
            RouteTrace trace)
            implements RouteResult {}

    /**
     * @param message for the client's {@code error.message}
     * @param earliestRecoveryAt the earliest time a credential that reached the partition stops
     *     cooling (credentials already tried included, paused/error excluded), for a {@code
     *     Retry-After} header; null when nothing is cooling
     */
    record Refused(ReasonCode code, String message, Instant earliestRecoveryAt, RouteTrace trace)
            implements RouteResult {

        public int httpStatus() {
            return code.httpStatus();
        }
    }
}
