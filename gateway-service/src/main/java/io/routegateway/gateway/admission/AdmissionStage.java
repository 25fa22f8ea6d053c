package io.routegateway.gateway.admission;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.util.HashSet;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

import jakarta.inject.Singleton;

import com.fasterxml.jackson.databind.JsonNode;
import io.routegateway.common.config.RouteConfig;
import io.routegateway.core.event.AccessKeySnapshot;
import io.routegateway.core.event.CredentialSnapshot;
import io.routegateway.core.event.RequestCompleted;
import io.routegateway.core.event.RuntimeSettingsSnapshot;
import io.routegateway.core.event.SpendSnapshot;
import io.routegateway.core.event.TeamSnapshot;
import io.routegateway.core.forward.Operation;
import io.routegateway.core.forward.Refusal;
import io.routegateway.core.limits.AdmissionCode;
import io.routegateway.core.limits.AdmissionDecision;
import io.routegateway.core.limits.AdmissionRequest;
import io.routegateway.core.limits.LimitField;
import io.routegateway.core.limits.Limits;
import io.routegateway.core.limits.PoolLoad;
import io.routegateway.core.limits.RateLimitHeaders;
import io.routegateway.core.limits.SlotWait;
import io.routegateway.core.recovery.DefaultZone;
import io.routegateway.core.select.PoolView;
import io.routegateway.core.select.SelectionSteps;
import io.routegateway.core.usage.ModelPrices;
import io.routegateway.gateway.config.GatewayConfig;
import io.routegateway.gateway.metrics.GatewayMetrics;
import io.routegateway.gateway.publish.LeasePublisher;
import io.routegateway.gateway.view.LimitsView;
import io.routegateway.gateway.view.PoolViewHolder;

/**
 * The admission stage of the request path, after authentication and before routing: the key's and
 * its team's limits ({@link Limits}), against the cluster's counts ({@link LeaseLedger}), decided by
 * route-core's {@code Admission} (budgets, rpm, tpm, parallel requests, then the team's fair share of
 * a contended pool). A key with no limits whose team has none (and no bounded pool to share) costs
 * nothing here: no lease, no header.
 *
 * <p>While the counts cannot be shared with the peers (the lease reader more than {@code
 * gateway.admission.max-lag} behind, or leases failing to publish) a limited key is admitted on what
 * this replica knows ({@code gateway.admission.when-unshared=local}) or refused with 503 {@value
 * #LIMITS_UNAVAILABLE} ({@code refuse}).
 *
 * <p>An admitted request's lease is closed by {@link #settled} with its usage record: the tokens
 * settled (input + output; none when no upstream was asked; unknown leaves the reservation for the
 * minute) and the cost priced by the runtime settings' {@code model_prices}.
 */
@Singleton
public class AdmissionStage {

    /** The code of a limited key's request refused while the counts are unshared ({@code refuse}). */
    public static final String LIMITS_UNAVAILABLE = "limits_unavailable";

    static final String RATE_LIMIT_ERROR = "rate_limit_error";
    static final String SERVER_ERROR = "server_error";

    private final LeaseLedger ledger;
    private final LeaseReader reader;
    private final LeasePublisher publisher;
    private final LimitsView limits;
    private final PoolViewHolder views;
    private final GatewayMetrics metrics;
    private final Clock clock;
    private final ZoneId zone;
    private final boolean refuseWhenUnshared;
    private final long maxLagMillis;
    private final long fairShareRecheckMillis;
    /** The rate limits of a key that sets none of its own (gateway.admission.default-key-limits.*). */
    private final Limits defaultKeyLimits;

    private final TeamPools teamPools = new TeamPools();
    /** The prices read from the settings last seen (replaced whole, so a racing read is harmless). */
    private volatile PricesOf pricesOf = new PricesOf(null, ModelPrices.NONE);

    AdmissionStage(
            LeaseLedger ledger,
            LeaseReader reader,
            LeasePublisher publisher,
            LimitsView limits,
            PoolViewHolder views,
            GatewayMetrics metrics,
            Clock clock,
            GatewayConfig config,
            RouteConfig routeConfig) {
        this.ledger = ledger;
        this.reader = reader;
        this.publisher = publisher;
        this.limits = limits;
        this.views = views;
        this.metrics = metrics;
        this.clock = clock;
        this.zone = DefaultZone.resolve(routeConfig.defaultTimeZone(), Optional.empty(), ZoneId.systemDefault());
        this.refuseWhenUnshared = config.admission().whenUnshared() == GatewayConfig.WhenUnshared.REFUSE;
        this.maxLagMillis = config.admission().maxLag().toMillis();
        this.fairShareRecheckMillis = config.admission().fairShareRecheck().toMillis();
        GatewayConfig.DefaultKeyLimits defaults = config.admission().defaultKeyLimits();
        this.defaultKeyLimits = new Limits(
                defaults.rpm().orElse(null),
                defaults.tpm().orElse(null),
                defaults.parallelRequests().orElse(null),
                null,
                null);
    }

    /**
     * Admits or refuses one authenticated, parsed request of {@code key}.
     *
     * @param body the parsed body (null when none), read for the request's bound on its output
     * @param bodyBytes the body's size, for the prompt's estimate
     */
    public AdmissionOutcome admit(AccessKeySnapshot key, Operation operation, JsonNode body, long bodyBytes) {
        return admit(key, operation, body, bodyBytes, 0);
    }

    /**
     * Admits or refuses one request that has waited {@code waitedMillis} for admission already: a
     * fair-share refusal within {@code gateway.admission.fair-share-recheck} of its first try is
     * {@link AdmissionOutcome.Recheck} (decide again shortly), not yet a refusal.
     */
    public AdmissionOutcome admit(
            AccessKeySnapshot key, Operation operation, JsonNode body, long bodyBytes, long waitedMillis) {
        String teamId = key.teamId();
        Limits keyLimits = key.limits().withDefaults(defaultKeyLimits);
        if (teamId == null && keyLimits.isNone()) {
            return new AdmissionOutcome.Admitted(Ticket.NONE);
        }
        TeamSnapshot team = limits.team(teamId);
        Limits teamLimits = team == null ? Limits.NONE : team.limits();
        Instant now = clock.instant();
        // fair share needs the pool's load only for a team's request
        PoolLoad pool = teamId == null ? null : poolLoad(key, now);
        AdmissionRequest request = new AdmissionRequest(
                key.accessKeyId(),
                keyLimits,
                teamId,
                teamLimits,
                team == null ? TeamSnapshot.DEFAULT_WEIGHT : team.weight(),
                RequestedTokens.reservation(operation, body, bodyBytes),
                pool,
                zone);
        if (request.isUnlimited()) {
            return new AdmissionOutcome.Admitted(Ticket.unlimited(teamId));
        }
        if (refuseWhenUnshared && unshared()) {
            metrics.admissionRefused(LIMITS_UNAVAILABLE, "unshared");
            return new AdmissionOutcome.Refused(
                    new Refusal(
                            503,
                            LIMITS_UNAVAILABLE,
                            "The gateway cannot count this key's limits with its peers now; retry shortly",
                            SERVER_ERROR),
                    teamId,
                    Math.max(1, (maxLagMillis + 999) / 1000),
                    RateLimitHeaders.NONE);
        }
        ledger.spend(limits.spend(SpendSnapshot.KEY, key.accessKeyId()));
        if (teamId != null) {
            ledger.spend(limits.spend(SpendSnapshot.TEAM, teamId));
        }
        LeaseLedger.Admitted admitted = ledger.admit(request, now);
        AdmissionDecision decision = admitted.decision();
        if (decision.admitted()) {
            return new AdmissionOutcome.Admitted(new Ticket(teamId, admitted.lease(), decision.headers()));
        }
        AdmissionCode code = decision.code();
        AdmissionOutcome.Refused refused = new AdmissionOutcome.Refused(
                new Refusal(AdmissionCode.HTTP_STATUS, code.wire(), decision.message(), RATE_LIMIT_ERROR),
                teamId,
                decision.retryAfterSeconds(),
                decision.headers());
        long pause = SlotWait.recheckInMillis(decision.field(), waitedMillis, fairShareRecheckMillis);
        if (pause != SlotWait.GIVE_UP) {
            return new AdmissionOutcome.Recheck(pause, refused);
        }
        metrics.admissionRefused(code.wire(), scopeOf(decision));
        return refused;
    }

    /** A request went away while its fair-share refusal was being decided again: counted as refused. */
    public void goneWhileRechecking(AdmissionOutcome.Recheck recheck) {
        metrics.admissionRefused(recheck.refused().refusal().code(), "fair_share");
    }

    /**
     * The request of {@code ticket} is over: its lease closes at the usage record's time with the
     * tokens it settled and its cost.
     */
    public void settled(Ticket ticket, RequestCompleted record) {
        if (ticket == null || ticket.lease() == null) {
            return;
        }
        Long tokens = settledTokens(record);
        // priced per token kind, as state-service prices the stored usage row
        Long cost = record.costMicros(prices());
        ledger.close(ticket.lease(), record.occurredAt(), tokens, cost);
    }

    /**
     * Whether this replica's counts are its own only: the lease reader has not caught up within
     * {@code gateway.admission.max-lag} (or never has), or a lease failed to publish within it.
     */
    public boolean unshared() {
        long lag = reader.lagMillis();
        return lag < 0 || lag > maxLagMillis || publisher.failingWithin(maxLagMillis);
    }

    /** The input + output tokens of a request; 0 when no upstream was asked; null when unknown. */
    static Long settledTokens(RequestCompleted record) {
        if (record.attempts() == 0) {
            return 0L;
        }
        if (record.inputTokens() == null && record.outputTokens() == null) {
            return null;
        }
        long input = record.inputTokens() == null ? 0 : Math.max(0, record.inputTokens());
        long output = record.outputTokens() == null ? 0 : Math.max(0, record.outputTokens());
        return input + output;
    }

    /** The {@code scope} tag of a refusal: {@code key}, {@code team} or {@code fair_share}. */
    static String scopeOf(AdmissionDecision decision) {
        if (decision.field() == LimitField.FAIR_SHARE) {
            return "fair_share";
        }
        return decision.scope().name().toLowerCase(Locale.ROOT);
    }

    /**
     * The load of the pool the key's groups draw on: K, the sum of the usable credentials'
     * {@code max_parallel_requests} (unbounded when one has none), their attempts in flight, and
     * which teams draw on the same groups (only they claim slots of it).
     */
    private PoolLoad poolLoad(AccessKeySnapshot key, Instant now) {
        PoolView view = views.pool();
        Set<String> seen = new HashSet<>();
        long capacity = 0;
        long inFlight = 0;
        for (String groupId : key.groupIds()) {
            for (CredentialSnapshot credential : view.pool(groupId)) {
                if (!seen.add(credential.credentialId()) || SelectionSteps.loadRejection(credential) != null) {
                    continue;
                }
                Integer parallel = credential.limits().maxParallelRequests();
                if (parallel == null) {
                    return new PoolLoad(0, 0, null);
                }
                capacity += parallel;
                inFlight += ledger.attemptsInFlight(credential.credentialId(), now);
            }
        }
        return new PoolLoad(capacity, inFlight, limits::weight, teamPools.sharing(view, key.groupIds()));
    }

    /** The prices of the newest runtime settings, parsed once per settings version. */
    private ModelPrices prices() {
        RuntimeSettingsSnapshot settings = views.settings();
        if (settings == null) {
            return ModelPrices.NONE;
        }
        PricesOf held = pricesOf;
        if (held.settings != settings) {
            held = new PricesOf(settings, settings.prices());
            pricesOf = held;
        }
        return held.prices;
    }

    private record PricesOf(RuntimeSettingsSnapshot settings, ModelPrices prices) {}
}
