package io.routegateway.state.routecheck;

import java.time.Instant;

import io.routegateway.core.select.ProtocolRule;
import io.routegateway.core.select.ReasonCode;
import io.routegateway.core.select.RouteResult;
import io.routegateway.core.select.RouteTrace;

/**
 * The answer of a route check: what the gateway would do with this request right now, and why.
 *
 * @param decision {@code selected} or {@code refused}
 * @param reasonCode the refusal's code (what the client's {@code error.code} would be), null when
 *     selected
 * @param httpStatus what the client would get: 401/403 for key refusals, 400 for {@code
 *     operation_unsupported} (a body no bridge can express), 502 for the pool
 * @param affinityKey hex of the soft-affinity key derived from the prompt, null without a prompt
 * @param trace route-core's decision trace: the access refusal, then every group (verdict {@code
 *     SELECTED}, {@code ELIGIBLE}, {@code COOLING}, {@code DROPPED}, {@code NOT_EVALUATED}, reason
 *     code, failover position) and every credential of each evaluated pool with the step that decided
 *     it (1 load, 2 platform rule, 3 model filter, 5 partition, 6 chooser), its reason code, model
 *     key, recovery time, priority and effective weight
 */
public record RouteCheckView(
        String decision,
        String reasonCode,
        String meaning,
        String howToHandle,
        String message,
        Integer httpStatus,
        Selected selected,
        Instant earliestRecoveryAt,
        String affinityKey,
        RouteTrace trace) {

    /** The credential the request would go to. */
    public record Selected(
            String groupId,
            String groupName,
            String credentialId,
            String credentialName,
            String modelKey,
            String upstreamModel,
            boolean affinityHit,
            boolean fromCoolingFallback,
            Instant recoveryAt,
            String upstreamProtocol,
            String bridge) {}

    /** @param rule the request's protocol rule, which names the bridge a bridged route takes */
    static RouteCheckView of(RouteResult result, String affinityKey, ProtocolRule rule) {
        if (result instanceof RouteResult.Selected selected) {
            return new RouteCheckView(
                    "selected",
                    null,
                    null,
                    null,
                    null,
                    null,
                    new Selected(
                            selected.group().groupId(),
                            selected.group().name(),
                            selected.credential().credentialId(),
                            selected.credential().name(),
                            selected.modelKey(),
                            selected.upstreamModel(),
                            selected.affinityHit(),
                            selected.fromCoolingFallback(),
                            selected.recoveryAt(),
                            selected.upstreamProtocol().wire(),
                            selected.bridged()
                                    ? rule.bridgeLabel(selected.clientProtocol(), selected.credential())
                                    : null),
                    null,
                    affinityKey,
                    result.trace());
        }
        RouteResult.Refused refused = (RouteResult.Refused) result;
        ReasonCode code = refused.code();
        return new RouteCheckView(
                "refused",
                code.wire(),
                code.meaning(),
                code.howToHandle(),
                refused.message(),
                refused.httpStatus(),
                null,
                refused.earliestRecoveryAt(),
                affinityKey,
                result.trace());
    }
}
