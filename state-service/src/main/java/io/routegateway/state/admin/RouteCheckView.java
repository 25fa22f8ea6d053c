package io.routegateway.state.admin;

import java.time.Instant;
import java.util.List;
import java.util.Locale;

import io.routegateway.core.select.ReasonCode;
import io.routegateway.core.select.RouteResult;
import io.routegateway.core.select.RouteTrace;

/**
 * The answer of a route check: what the gateway would do with this request right now, and why.
 *
 * @param decision {@code selected} or {@code refused}
 * @param reasonCode the refusal's code (what the client's {@code error.code} would be), null when
 *     selected
 * @param httpStatus what the client would get: 401/403 for key refusals, 502 for the pool
 * @param affinityKey hex of the soft-affinity key derived from the prompt, null without a prompt
 * @param trace every group and every credential of each evaluated pool, with the step and reason
 *     code that decided it
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
        Trace trace) {

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
            Instant recoveryAt) {}

    public record Trace(String accessRefusal, String outcome, List<GroupTrace> groups) {}

    /**
     * @param verdict {@code selected}, {@code eligible}, {@code cooling}, {@code dropped} or {@code
     *     not_evaluated}
     */
    public record GroupTrace(
            String groupId,
            String groupName,
            String verdict,
            String reason,
            String detail,
            int failoverPosition,
            List<CredentialTrace> credentials) {}

    /**
     * @param step 1 load candidates, 2 platform rule, 3 model filter, 5 partition, 6 the chooser
     * @param weight the effective weight the draw uses
     */
    public record CredentialTrace(
            String credentialId,
            String credentialName,
            int step,
            String verdict,
            String reason,
            String detail,
            String modelKey,
            String upstreamModel,
            Instant recoveryAt,
            int priority,
            int weight) {}

    static RouteCheckView of(RouteResult result, String affinityKey) {
        Trace trace = trace(result.trace());
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
                            selected.recoveryAt()),
                    null,
                    affinityKey,
                    trace);
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
                trace);
    }

    private static Trace trace(RouteTrace trace) {
        if (trace == null) {
            return null;
        }
        return new Trace(
                wire(trace.accessRefusal()),
                wire(trace.outcome()),
                trace.groups().stream()
                        .map(group -> new GroupTrace(
                                group.groupId(),
                                group.groupName(),
                                verdict(group.verdict()),
                                wire(group.reason()),
                                group.detail(),
                                group.failoverPosition(),
                                group.credentials().stream()
                                        .map(credential -> new CredentialTrace(
                                                credential.credentialId(),
                                                credential.credentialName(),
                                                credential.step(),
                                                verdict(credential.verdict()),
                                                wire(credential.reason()),
                                                credential.detail(),
                                                credential.modelKey(),
                                                credential.upstreamModel(),
                                                credential.recoveryAt(),
                                                credential.priority(),
                                                credential.weight()))
                                        .toList()))
                        .toList());
    }

    private static String wire(ReasonCode code) {
        return code == null ? null : code.wire();
    }

    private static String verdict(RouteTrace.Verdict verdict) {
        return verdict == null ? null : verdict.name().toLowerCase(Locale.ROOT);
    }
}
