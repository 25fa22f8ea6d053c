package io.routegateway.core.select;

import java.time.Instant;

import io.routegateway.core.event.CredentialSnapshot;
import io.routegateway.core.event.GroupSnapshot;
import io.routegateway.core.model.Protocol;

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
     * @param clientProtocol the protocol the client spoke
     * @param upstreamProtocol the protocol to speak to the credential: the client's own when the
     *     platform serves it natively, otherwise the platform's primary one, through a bridge
     */
    record Selected(
            GroupSnapshot group,
            CredentialSnapshot credential,
            String modelKey,
            String upstreamModel,
            boolean affinityHit,
            boolean fromCoolingFallback,
            Instant recoveryAt,
            Protocol clientProtocol,
            Protocol upstreamProtocol,
            RouteTrace trace)
            implements RouteResult {

        /** Whether the request goes through a protocol bridge. */
        public boolean bridged() {
            return clientProtocol != upstreamProtocol;
        }

        /** The bridge's label ({@code anthropic_messages->openai_chat}), null on a native route. */
        public String bridge() {
            return bridged() ? clientProtocol.wire() + "->" + upstreamProtocol.wire() : null;
        }
    }

    /**
     * @param message for the client's {@code error.message}
     * @param earliestRecoveryAt the earliest time a credential that reached the partition stops
     *     cooling (credentials already tried included, paused/error excluded), for a {@code
     *     Retry-After} header; null when nothing is cooling
     */
    record Refused(ReasonCode code, String message, Instant earliestRecoveryAt, RouteTrace trace)
            implements RouteResult {

        /**
         * The client's status: the code's, except {@code operation_unsupported} from routing, which is
         * 400: the request itself is what no credential can be sent (a conversion cannot express it),
         * so the client must change it; the endpoint-level refusal of the same code stays 502.
         */
        public int httpStatus() {
            return code == ReasonCode.OPERATION_UNSUPPORTED ? 400 : code.httpStatus();
        }
    }
}
