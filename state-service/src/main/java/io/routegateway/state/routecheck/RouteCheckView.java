package io.routegateway.state.routecheck;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;

import io.routegateway.core.limits.Limits;
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
 *     key, recovery time, priority and effective weight. Its reason codes are route-core's as
 *     they are: a credential the gateway skips because it is at its own limits ({@code
 *     credential_full}, decided by live counts) shows there once route-core's selection reports it;
 *     the route check holds no live counts, so it never decides that itself
 * @param admission what the gateway's admission would decide before routing (team, limits, budgets);
 *     null when the key is unknown. A spent budget makes the whole answer {@code refused} with
 *     {@code budget_exceeded} (429), the trace still showing where the request would go once admitted
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
        RouteTrace trace,
        AdmissionCheck admission) {

    /**
     * The admission part of a route check.
     *
     * @param teamId the key's team, null = none
     * @param keyLimits the key's own limits (all five fields)
     * @param teamLimits its team's, null without a team
     * @param effectiveLimits field by field the tighter of the two for rpm, tpm and parallel
     *     requests; the budget fields are the key's (budgets are checked apart, see {@code budgets})
     * @param budgets each budget (the key's, then its team's) with its window's settled spend
     * @param decision {@code not_limited} (no limits at all: the gateway skips admission), {@code
     *     admitted} or {@code refused}
     * @param reasonCode {@code budget_exceeded} when a budget refuses, else null
     * @param budgetResetAt when every spent budget has reset (null when admitted, or when a spent
     *     budget is a lifetime one, which never resets)
     * @param note what the route check cannot tell: live rate, token and concurrency counts
     */
    public record AdmissionCheck(
            String teamId,
            String teamName,
            Limits keyLimits,
            Limits teamLimits,
            Limits effectiveLimits,
            List<BudgetCheck> budgets,
            String decision,
            String reasonCode,
            Instant budgetResetAt,
            String note) {

        static final String LIVE_LIMITS_NOTE = "rpm_limit, tpm_limit and max_parallel_requests are counted by the"
                + " gateways from live traffic; the route check lists them but cannot tell whether they refuse now";
    }

    /**
     * One budget and its current window.
     *
     * @param subject {@code key} or {@code team}
     * @param budgetDuration null for a lifetime budget
     * @param budgetResetAt the window's end, null for a lifetime budget
     * @param exceeded the settled spend has reached {@code max_budget}
     */
    public record BudgetCheck(
            String subject,
            String subjectId,
            BigDecimal maxBudget,
            String budgetDuration,
            BigDecimal spendUsd,
            Instant budgetWindowStart,
            Instant budgetResetAt,
            boolean exceeded) {}

    /** This answer with the admission part. */
    RouteCheckView withAdmission(AdmissionCheck admission) {
        return new RouteCheckView(
                decision,
                reasonCode,
                meaning,
                howToHandle,
                message,
                httpStatus,
                selected,
                earliestRecoveryAt,
                affinityKey,
                trace,
                admission);
    }

    /** The gateway's answer when a budget refuses: 429 {@code budget_exceeded}, the routing trace kept. */
    RouteCheckView refusedByBudget(AdmissionCheck admission) {
        String whose = admission.budgets().stream()
                .filter(BudgetCheck::exceeded)
                .map(budget -> budget.subject().equals("team") ? "its team's" : "the key's")
                .reduce((left, right) -> left + " and " + right)
                .orElse("a");
        return new RouteCheckView(
                "refused",
                admission.reasonCode(),
                "The AccessKey's or its team's budget is spent for the current window",
                "Wait for the window to reset (budget_reset_at), or raise max_budget",
                whose + " budget is spent"
                        + (admission.budgetResetAt() == null
                                ? " and does not reset (a lifetime budget)"
                                : " until " + admission.budgetResetAt()),
                429,
                null,
                admission.budgetResetAt(),
                affinityKey,
                trace,
                admission);
    }

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
                    result.trace(),
                    null);
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
                result.trace(),
                null);
    }
}
