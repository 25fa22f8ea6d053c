package io.routegateway.core.select;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.random.RandomGenerator;

import io.routegateway.core.access.AccessDecision;
import io.routegateway.core.event.CredentialSnapshot;
import io.routegateway.core.event.GroupSnapshot;
import io.routegateway.core.model.BridgePolicy;
import io.routegateway.core.state.ModelState;

/**
 * The one routing entry point of the request path: AccessKey decision → group selection →
 * credential selection (the five steps, then the chooser), with group failover.
 *
 * <p>Per group, the candidates of steps 1–3 come precomputed from the {@link PoolView}. The
 * affinity credential is taken first if it is eligible. Otherwise step 5 runs with {@link
 * SelectionSteps#classify} over the candidates in original order, stopping at the first eligible
 * one (which sits in the lowest priority tier), and a weighted draw picks inside that tier — the
 * distribution of {@link CredentialChooser}, sampled by rejection over precomputed prefix sums
 * (see {@link #chooseInTier}), so a typical request touches a few candidates rather than the whole
 * tier. A group with nothing eligible hands over to the next group of the failover order: every
 * group of the key is tried for an eligible credential first (seed B: another group serves the
 * model when one "has no working credentials"). Only when no group has one is the
 * soonest-recovering cooling candidate over all of them (earliest recovery; ties keep the failover
 * order, then the original order) the single fallback — seed A's last resort "rather than hand the
 * client an error", taken at most once per request (see {@code coolingProbe}).
 *
 * <p>The request's {@link ProtocolRule} (native only, today) decides which candidates can serve
 * its protocol at all: one it refuses is left out like a tried credential — never picked, never
 * the probe, no {@code Retry-After} from its cooldown. This is the one routing path: the gateway
 * and route check both call it, so a route check says what the gateway does.
 *
 * <p>Refusal code when every group yields nothing — the one that tells the client what will
 * change first, in this order: {@code no_available_credential} (a servable candidate was already
 * tried, is weight 0, or is cooling once the probe is spent: it comes back by itself, hence the
 * {@code Retry-After} from the earliest recovery) › {@code operation_unsupported} (a group had
 * credentials that would serve but whose conversion cannot express the request) › {@code
 * native_route_required} (… but only through a conversion the request or group forbids) › {@code
 * route_pool.model_unavailable} (the model is served but paused / error everywhere it was still
 * possible) › {@code route_pool.model_unmatched} › {@code route_pool.no_enabled_credentials} ›
 * {@code no_credentials}; ties keep the first group's code. The groups that would never serve
 * rank below one that is only waiting: a 400 for the request's shape, or advice to clear a pause,
 * would send the client to the wrong fix while another group is merely throttled. Inside one
 * group the same order holds (see {@code selectPass}).
 *
 * <p>A credential at its own limits ({@link FullCredentials}: its {@code rpm_limit} or {@code
 * max_parallel_requests}, counted by the caller) is skipped like a tried one with {@code
 * credential_full}: never picked, never the probe, and only waiting ({@code no_available_credential}
 * when nothing else is left).
 *
 * <p>Pure apart from reading {@code affinity} (which it never writes: call {@link
 * #rememberSuccess} after a successful forward) and drawing from {@code rng}. Allocation on the
 * untraced path is a handful of small objects, independent of pool size.
 */
public final class Router {

    /** Rejected weighted draws before the exact walk; see {@link #chooseInTier}. */
    static final int SAMPLING_ATTEMPTS = 8;

    /** The verdict of a candidate the request's {@link ProtocolRule} refuses. */
    private static final int NOT_SERVED = -1;

    private Router() {}

    /**
     * Routes the first attempt of a request: {@link #route(PoolView, RouteRequest, Set, boolean,
     * AffinityTable, RandomGenerator, Instant, boolean)} with the cooling probe allowed.
     */
    public static RouteResult route(
            PoolView view,
            RouteRequest request,
            Set<String> excludedCredentialIds,
            AffinityTable affinity,
            RandomGenerator rng,
            Instant now,
            boolean trace) {
        return route(view, request, excludedCredentialIds, true, affinity, rng, now, trace);
    }

    /**
     * Routes one attempt.
     *
     * @param excludedCredentialIds credentials already tried in this request ({@code
     *     credential_not_allowed}); null = none
     * @param coolingProbe whether the cooling fallback may still be used: a request gets one probe
     *     of a cooling credential, so the caller passes false once it has made it
     * @param affinity the affinity table, or null to ignore affinity
     * @param trace whether to build a {@link RouteTrace} (route check, or logging a refusal)
     */
    public static RouteResult route(
            PoolView view,
            RouteRequest request,
            Set<String> excludedCredentialIds,
            boolean coolingProbe,
            AffinityTable affinity,
            RandomGenerator rng,
            Instant now,
            boolean trace) {
        return route(
                view, request, excludedCredentialIds, coolingProbe, FullCredentials.NONE, affinity, rng, now, trace);
    }

    /**
     * Routes one attempt, skipping the credentials at their own limits.
     *
     * @param full which credentials are at their own {@code rpm_limit} or {@code
     *     max_parallel_requests} now ({@code credential_full}: skipped like a tried one, never the
     *     cooling probe, never a failure)
     * @see #route(PoolView, RouteRequest, Set, boolean, AffinityTable, RandomGenerator, Instant, boolean)
     */
    public static RouteResult route(
            PoolView view,
            RouteRequest request,
            Set<String> excludedCredentialIds,
            boolean coolingProbe,
            FullCredentials full,
            AffinityTable affinity,
            RandomGenerator rng,
            Instant now,
            boolean trace) {
        TraceBuilder tb = trace ? new TraceBuilder() : null;
        Set<String> tried = excludedCredentialIds == null ? Set.of() : excludedCredentialIds;
        String model = SelectionSteps.normalizeModel(request.requestedModel());

        AccessDecision access = AccessDecision.decide(request.accessKey(), request.protocol(), model, now);
        if (access instanceof AccessDecision.Refused refused) {
            if (tb != null) {
                tb.accessRefusal = refused.code();
            }
            return refuse(refused.code(), refused.message(), null, tb);
        }

        GroupSelector.GroupCandidates groups = GroupSelector.candidates(view, request.accessKey(), model, tb);
        if (groups.refusal() != null) {
            return refuse(groups.refusal(), groups.message(), null, tb);
        }

        AffinityTable.Target target = null;
        if (affinity != null && request.affinityKey() != null) {
            target = affinity.lookup(request.affinityKey(), now).orElse(null);
        }
        List<GroupSnapshot> order = GroupSelector.failoverOrder(groups.groups(), rng);
        if (target != null) {
            order = preferGroup(order, target.groupId());
        }

        CredentialEntry[] entries = view.entries();
        int[] weights = view.weights();
        Pick pick = new Pick();
        ReasonCode best = null;
        // the last-resort probe: the soonest-recovering cooling candidate over every group
        int probeGroup = -1;
        int probePosition = -1;
        Instant probeUntil = null;
        for (int position = 0; position < order.size(); position++) {
            GroupSnapshot group = order.get(position);
            GroupEntry entry = view.groupEntry(group.groupId());
            CandidateSet candidates = entry.candidates(entries, model);
            String affinityCredential = target != null && group.affinityEnabled() ? target.credentialId() : null;
            selectInGroup(
                    candidates,
                    entries,
                    weights,
                    tried,
                    full,
                    request,
                    group.bridging(),
                    affinityCredential,
                    rng,
                    now,
                    pick);
            if (tb != null) {
                traceGroup(tb, entry, candidates, entries, weights, tried, full, request, now, pick, position);
            }
            if (pick.position >= 0) {
                if (tb != null) {
                    for (int rest = position + 1; rest < order.size(); rest++) {
                        GroupSnapshot skipped = order.get(rest);
                        tb.group(skipped.groupId(), skipped.name()).position = rest;
                    }
                }
                return selected(group, entries, candidates, pick.position, pick, request, tb);
            }
            if (pick.coolingPosition >= 0 && (probeUntil == null || pick.coolingUntil.isBefore(probeUntil))) {
                probeGroup = position;
                probePosition = pick.coolingPosition;
                probeUntil = pick.coolingUntil;
            }
            if (rank(pick.failure) > rank(best)) {
                best = pick.failure;
            }
        }
        if (probeGroup >= 0 && coolingProbe) {
            GroupSnapshot group = order.get(probeGroup);
            GroupEntry entry = view.groupEntry(group.groupId());
            CandidateSet candidates = entry.candidates(entries, model);
            pick.reset();
            pick.position = probePosition;
            pick.fallback = true;
            pick.recoveryAt = probeUntil;
            if (tb != null) {
                tb.group(group.groupId(), group.name()).credentials.clear();
                traceGroup(tb, entry, candidates, entries, weights, tried, full, request, now, pick, probeGroup);
            }
            return selected(group, entries, candidates, probePosition, pick, request, tb);
        }
        Instant earliest = earliestRecovery(view, order, model, request, now);
        return refuse(best, poolMessage(best, model, request), earliest, tb);
    }

    private static RouteResult.Selected selected(
            GroupSnapshot group,
            CredentialEntry[] entries,
            CandidateSet candidates,
            int p,
            Pick pick,
            RouteRequest request,
            TraceBuilder tb) {
        CredentialSnapshot credential = entries[candidates.ordinals[p]].snapshot;
        return new RouteResult.Selected(
                group,
                credential,
                candidates.modelKeys[p],
                candidates.upstreamModels[p],
                pick.affinityHit,
                pick.fallback,
                pick.recoveryAt,
                request.protocol(),
                request.isNative(credential)
                        ? request.protocol()
                        : credential.platform().primaryProtocol(),
                tb == null ? null : tb.build());
    }

    /**
     * After a successful forward: remembers the credential for the request's affinity key, when
     * the request has one and the serving group has affinity enabled. Only successes are
     * remembered.
     */
    public static void rememberSuccess(
            AffinityTable affinity, RouteRequest request, RouteResult.Selected selected, Instant now) {
        if (affinity == null
                || request.affinityKey() == null
                || !selected.group().affinityEnabled()) {
            return;
        }
        affinity.remember(
                request.affinityKey(),
                selected.group().groupId(),
                selected.credential().credentialId(),
                now);
    }

    /**
     * The eligible credential to use for one group: step 5 and the chooser over the precomputed
     * candidates. When nothing is eligible leaves {@code pick.position} at -1, sets {@code
     * pick.failure}, and records the group's soonest-recovering cooling candidate (the probe
     * candidate) in {@code pick.coolingPosition}.
     */
    private static void selectInGroup(
            CandidateSet candidates,
            CredentialEntry[] entries,
            int[] weights,
            Set<String> excluded,
            FullCredentials full,
            RouteRequest request,
            BridgePolicy policy,
            String affinityCredential,
            RandomGenerator rng,
            Instant now,
            Pick pick) {
        pick.reset();
        if (candidates.failure != null) {
            pick.failure = candidates.failure;
            return;
        }
        Tried tried = Tried.of(candidates, excluded, full);
        if (affinityCredential != null) {
            // a remembered credential keeps its session, bridged or not (it was chosen by these rules)
            int position = candidates.position(affinityCredential);
            if (position >= 0
                    && verdictAt(candidates, position, entries, weights, tried, request, true, policy, now)
                            == SelectionSteps.ELIGIBLE) {
                pick.position = position;
                pick.affinityHit = true;
                return;
            }
        }
        if (policy == BridgePolicy.NATIVE_FIRST) {
            // native credentials first; the bridged ones only when no native one is eligible
            boolean others = selectPass(candidates, entries, weights, tried, request, false, policy, rng, now, pick);
            if (pick.position >= 0 || !others) {
                return;
            }
            pick.reset();
        }
        selectPass(candidates, entries, weights, tried, request, true, policy, rng, now, pick);
    }

    /**
     * One pass of step 5 and the chooser; {@code bridges} whether bridged credentials take part.
     * Returns whether the group has candidates that are not native (worth a pass with bridges).
     */
    private static boolean selectPass(
            CandidateSet candidates,
            CredentialEntry[] entries,
            int[] weights,
            Tried tried,
            RouteRequest request,
            boolean bridges,
            BridgePolicy policy,
            RandomGenerator rng,
            Instant now,
            Pick pick) {
        int coolingPosition = -1;
        Instant coolingUntil = null;
        boolean onlyHardExclusions = true;
        boolean others = false;
        ReasonCode protocolRefusal = null;
        for (int i = 0; i < candidates.size; i++) {
            CredentialEntry entry = entries[candidates.ordinals[i]];
            ModelState row = entry.row(candidates.modelKeys[i]);
            int verdict = SelectionSteps.classify(
                    isTried(tried, i, entry),
                    weights[entry.ordinal] <= 0,
                    isFull(tried, entry),
                    row,
                    entry.accountCoolingUntil,
                    now);
            if (!request.serves(entry, bridges, policy)) {
                others = true;
                if (!bridges) {
                    continue;
                }
                // usable but for the protocol: left out like a tried credential, never the probe
                if (verdict == SelectionSteps.ELIGIBLE || verdict == SelectionSteps.COOLING) {
                    ReasonCode code = request.serving(entry, policy) == ProtocolRule.Serving.UNSUPPORTED
                            ? ReasonCode.OPERATION_UNSUPPORTED
                            : ReasonCode.NATIVE_ROUTE_REQUIRED;
                    if (rank(code) > rank(protocolRefusal)) {
                        protocolRefusal = code;
                    }
                } else if (verdict != SelectionSteps.HARD_EXCLUDED) {
                    onlyHardExclusions = false;
                }
                continue;
            }
            if (verdict == SelectionSteps.ELIGIBLE) {
                pick.position =
                        chooseInTier(candidates, i, entries, weights, tried, request, bridges, policy, rng, now);
                return others;
            }
            if (verdict == SelectionSteps.COOLING) {
                Instant recovery = SelectionSteps.recoveryAt(entry.accountCoolingUntil, row);
                if (coolingPosition < 0 || recovery.isBefore(coolingUntil)) {
                    coolingPosition = i;
                    coolingUntil = recovery;
                }
            } else if (verdict != SelectionSteps.HARD_EXCLUDED) {
                onlyHardExclusions = false;
            }
        }
        pick.coolingPosition = coolingPosition;
        pick.coolingUntil = coolingUntil;
        if (coolingPosition >= 0 || !onlyHardExclusions) {
            // a servable credential is cooling, already tried, or weight 0
            pick.failure = ReasonCode.NO_AVAILABLE_CREDENTIAL;
        } else if (protocolRefusal != null) {
            pick.failure = protocolRefusal;
        } else {
            pick.failure = ReasonCode.MODEL_UNAVAILABLE;
        }
        return others;
    }

    /**
     * Weighted draw among the eligible candidates of the priority tier of {@code first}, the first
     * eligible position (so the tier is the lowest one with an eligible candidate).
     *
     * <p>A tier of one member takes no draw. Otherwise rejection sampling: draw a position of the
     * whole tier by weight (binary search over the precomputed prefix sums), accept it if eligible.
     * Conditioned on acceptance that is exactly the weighted distribution over the eligible
     * members, in O(log n) per attempt instead of a scan of the tier. After {@value
     * #SAMPLING_ATTEMPTS} rejections (a tier that is mostly cooling or tried) it falls back to the
     * exact two-pass walk of {@link CredentialChooser}; the mixture of the two is still exact.
     */
    private static int chooseInTier(
            CandidateSet candidates,
            int first,
            CredentialEntry[] entries,
            int[] weights,
            Tried tried,
            RouteRequest request,
            boolean bridges,
            BridgePolicy policy,
            RandomGenerator rng,
            Instant now) {
        int start = candidates.tierStart[first];
        int end = candidates.tierEnd[first];
        if (end - start == 1) {
            return first;
        }
        long[] sums = candidates.prefixSums(weights);
        long base = sums[start];
        long total = sums[end] - base;
        for (int attempt = 0; attempt < SAMPLING_ATTEMPTS; attempt++) {
            int j = search(sums, start, end, base + rng.nextLong(total));
            if (verdictAt(candidates, j, entries, weights, tried, request, bridges, policy, now)
                    == SelectionSteps.ELIGIBLE) {
                return j;
            }
        }
        long eligibleTotal = 0;
        for (int j = first; j < end; j++) {
            if (verdictAt(candidates, j, entries, weights, tried, request, bridges, policy, now)
                    == SelectionSteps.ELIGIBLE) {
                eligibleTotal += weights[candidates.ordinals[j]];
            }
        }
        long r = rng.nextLong(eligibleTotal);
        for (int j = first; j < end; j++) {
            if (verdictAt(candidates, j, entries, weights, tried, request, bridges, policy, now)
                    == SelectionSteps.ELIGIBLE) {
                r -= weights[candidates.ordinals[j]];
                if (r < 0) {
                    return j;
                }
            }
        }
        throw new IllegalStateException("weighted walk ended without a pick");
    }

    /**
     * The position {@code j} in {@code [start, end)} with {@code sums[j] <= r < sums[j + 1]}; it
     * always has a positive weight (zero-width positions are never the largest such {@code j}).
     */
    private static int search(long[] sums, int start, int end, long r) {
        int lo = start;
        int hi = end - 1;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (sums[mid] <= r) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return lo;
    }

    /** The step-5 verdict of one candidate; {@link #NOT_SERVED} when the protocol rule refuses it. */
    private static int verdictAt(
            CandidateSet candidates,
            int i,
            CredentialEntry[] entries,
            int[] weights,
            Tried tried,
            RouteRequest request,
            boolean bridges,
            BridgePolicy policy,
            Instant now) {
        CredentialEntry entry = entries[candidates.ordinals[i]];
        if (!request.serves(entry, bridges, policy)) {
            return NOT_SERVED;
        }
        return SelectionSteps.classify(
                isTried(tried, i, entry),
                weights[entry.ordinal] <= 0,
                isFull(tried, entry),
                entry.row(candidates.modelKeys[i]),
                entry.accountCoolingUntil,
                now);
    }

    /**
     * The request-level exclusions of one request resolved against one group's candidates: the
     * credentials it tried, and those at their own limits ({@link FullCredentials}, asked per
     * candidate actually examined). A small tried set (a retry's few tried credentials) becomes a
     * handful of candidate positions, checked by a scan of a tiny array; a large one (a route check
     * excluding many credentials) is checked with one hash lookup per candidate actually examined,
     * so it is never resolved eagerly. Null stands for "nothing excluded".
     */
    private static final class Tried {
        static final int RESOLVE_LIMIT = 8;
        private static final int[] NONE = new int[0];

        final int[] positions;
        final Set<String> ids;
        final FullCredentials full;

        private Tried(int[] positions, Set<String> ids, FullCredentials full) {
            this.positions = positions;
            this.ids = ids;
            this.full = full;
        }

        static Tried of(CandidateSet candidates, Set<String> excluded, FullCredentials full) {
            if (excluded.isEmpty()) {
                return full == FullCredentials.NONE ? null : new Tried(NONE, null, full);
            }
            if (excluded.size() > RESOLVE_LIMIT) {
                return new Tried(null, excluded, full);
            }
            int[] positions = new int[excluded.size()];
            int n = 0;
            for (String id : excluded) {
                int position = candidates.position(id);
                if (position >= 0) {
                    positions[n++] = position;
                }
            }
            if (n == 0) {
                return full == FullCredentials.NONE ? null : new Tried(NONE, null, full);
            }
            return new Tried(n == positions.length ? positions : Arrays.copyOf(positions, n), null, full);
        }
    }

    private static boolean isFull(Tried tried, CredentialEntry entry) {
        return tried != null && tried.full != FullCredentials.NONE && tried.full.isFull(entry.snapshot);
    }

    private static boolean isTried(Tried tried, int position, CredentialEntry entry) {
        if (tried == null) {
            return false;
        }
        if (tried.ids != null) {
            return tried.ids.contains(entry.id);
        }
        for (int p : tried.positions) {
            if (p == position) {
                return true;
            }
        }
        return false;
    }

    /** Moves the remembered group to the front when it is a candidate with affinity enabled. */
    private static List<GroupSnapshot> preferGroup(List<GroupSnapshot> order, String groupId) {
        for (int i = 1; i < order.size(); i++) {
            GroupSnapshot group = order.get(i);
            if (group.groupId().equals(groupId) && group.affinityEnabled()) {
                List<GroupSnapshot> reordered = new ArrayList<>(order.size());
                reordered.add(group);
                for (int j = 0; j < order.size(); j++) {
                    if (j != i) {
                        reordered.add(order.get(j));
                    }
                }
                return reordered;
            }
        }
        return order;
    }

    /** The refusal order of the class comment: a higher rank is the code a refusal reports. */
    private static int rank(ReasonCode code) {
        if (code == null) {
            return 0;
        }
        switch (code) {
            case NO_AVAILABLE_CREDENTIAL:
                return 7;
            case OPERATION_UNSUPPORTED:
                return 6;
            case NATIVE_ROUTE_REQUIRED:
                return 5;
            case MODEL_UNAVAILABLE:
                return 4;
            case MODEL_UNMATCHED:
                return 3;
            case NO_ENABLED_CREDENTIALS:
            case CREDENTIAL_AUTH_UNAVAILABLE:
                return 2;
            default:
                return 1;
        }
    }

    private static String poolMessage(ReasonCode code, String model, RouteRequest request) {
        if (code == ReasonCode.NATIVE_ROUTE_REQUIRED) {
            return code.meaning() + ": no credential serves "
                    + request.protocol().wire() + " natively";
        }
        if (code == ReasonCode.OPERATION_UNSUPPORTED) {
            String detail = request.protocolRule().unsupportedDetail();
            return detail == null ? code.meaning() : code.meaning() + ": " + detail;
        }
        if (model != null && (code == ReasonCode.MODEL_UNMATCHED || code == ReasonCode.MODEL_UNAVAILABLE)) {
            return code.meaning() + ": " + model;
        }
        return code.meaning();
    }

    /**
     * The earliest future recovery among candidates that reached the partition in the evaluated
     * groups (tried ones included: they recover too; paused / error and weight 0 excluded).
     */
    private static Instant earliestRecovery(
            PoolView view, List<GroupSnapshot> order, String model, RouteRequest request, Instant now) {
        CredentialEntry[] entries = view.entries();
        int[] weights = view.weights();
        Instant earliest = null;
        for (GroupSnapshot group : order) {
            BridgePolicy policy = group.bridging();
            CandidateSet candidates = view.groupEntry(group.groupId()).candidates(entries, model);
            for (int i = 0; i < candidates.size; i++) {
                CredentialEntry entry = entries[candidates.ordinals[i]];
                ModelState row = entry.row(candidates.modelKeys[i]);
                if (weights[entry.ordinal] <= 0
                        || (row != null && row.isHardExcluded())
                        || !request.serves(entry, true, policy)) {
                    continue;
                }
                Instant recovery = SelectionSteps.recoveryAt(entry.accountCoolingUntil, row);
                if (recovery != null && recovery.isAfter(now) && (earliest == null || recovery.isBefore(earliest))) {
                    earliest = recovery;
                }
            }
        }
        return earliest;
    }

    private static RouteResult.Refused refuse(ReasonCode code, String message, Instant earliest, TraceBuilder tb) {
        RouteTrace trace = null;
        if (tb != null) {
            tb.outcome = code;
            trace = tb.build();
        }
        return new RouteResult.Refused(code, message, earliest, trace);
    }

    /**
     * Records one evaluated group and every credential of its pool with the step that decided it.
     * The candidates are a subsequence of the members in the same order, so one parallel walk
     * finds each member's position; a member that is no candidate but passed steps 1 and 2 was
     * dropped by step 3.
     */
    private static void traceGroup(
            TraceBuilder tb,
            GroupEntry group,
            CandidateSet candidates,
            CredentialEntry[] entries,
            int[] weights,
            Set<String> excluded,
            FullCredentials full,
            RouteRequest request,
            Instant now,
            Pick pick,
            int position) {
        TraceBuilder.GroupRow row = tb.group(group.group.groupId(), group.group.name());
        row.position = position;
        if (pick.position >= 0) {
            row.verdict = RouteTrace.Verdict.SELECTED;
            row.reason = null;
        } else {
            row.verdict = RouteTrace.Verdict.DROPPED;
            row.reason = pick.failure;
        }
        Tried tried = Tried.of(candidates, excluded, full);
        int next = 0;
        for (int member : group.members) {
            int at = -1;
            if (next < candidates.size && candidates.ordinals[next] == member) {
                at = next++;
            }
            row.credentials.add(traceCredential(
                    entries[member], at, candidates, weights, tried, request, group.group.bridging(), now, pick));
        }
    }

    private static RouteTrace.CredentialTrace traceCredential(
            CredentialEntry entry,
            int position,
            CandidateSet candidates,
            int[] weights,
            Tried tried,
            RouteRequest request,
            BridgePolicy policy,
            Instant now,
            Pick pick) {
        CredentialSnapshot credential = entry.snapshot;
        int priority = credential.priority();
        int weight = weights[entry.ordinal];
        if (position < 0) {
            ReasonCode load = SelectionSteps.loadRejection(credential);
            if (load != null) {
                return row(entry, 1, RouteTrace.Verdict.DROPPED, load, SelectionSteps.loadRejectionDetail(credential));
            }
            if (!SelectionSteps.passesPlatformRule(credential)) {
                return row(
                        entry,
                        2,
                        RouteTrace.Verdict.DROPPED,
                        ReasonCode.NO_ENABLED_CREDENTIALS,
                        "platform " + credential.platform().wire() + " does not accept "
                                + credential.kind().wire() + " credentials");
            }
            return row(entry, 3, RouteTrace.Verdict.DROPPED, ReasonCode.MODEL_UNMATCHED, "no mapping serves the model");
        }
        String modelKey = candidates.modelKeys[position];
        String upstream = candidates.upstreamModels[position];
        ModelState modelRow = entry.row(modelKey);
        if (position == pick.position) {
            String detail = pick.affinityHit ? "affinity" : pick.fallback ? "cooling fallback" : "weighted draw";
            if (!request.isNative(credential)) {
                detail += "; bridge " + request.protocolRule().bridgeLabel(request.protocol(), credential);
            }
            return new RouteTrace.CredentialTrace(
                    entry.id,
                    credential.name(),
                    6,
                    RouteTrace.Verdict.SELECTED,
                    pick.fallback ? ReasonCode.CREDENTIAL_COOLDOWN : null,
                    detail,
                    modelKey,
                    upstream,
                    pick.fallback ? pick.recoveryAt : null,
                    priority,
                    weight);
        }
        ProtocolRule.Serving serving = request.serving(entry, policy);
        if (serving == ProtocolRule.Serving.NATIVE_REQUIRED || serving == ProtocolRule.Serving.UNSUPPORTED) {
            boolean unsupported = serving == ProtocolRule.Serving.UNSUPPORTED;
            String platform = credential.platform() == null
                    ? "unknown"
                    : credential.platform().wire();
            String why = unsupported
                    ? "the request cannot be converted for platform " + platform + ": "
                            + request.protocolRule().unsupportedDetail()
                    : policy == BridgePolicy.NATIVE_ONLY && credential.platform() != null
                            ? "the group is native-only and platform " + platform + " does not serve "
                                    + request.protocol().wire() + " natively"
                            : "platform " + platform + " does not serve "
                                    + request.protocol().wire() + " natively";
            return new RouteTrace.CredentialTrace(
                    entry.id,
                    credential.name(),
                    5,
                    RouteTrace.Verdict.DROPPED,
                    unsupported ? ReasonCode.OPERATION_UNSUPPORTED : ReasonCode.NATIVE_ROUTE_REQUIRED,
                    why,
                    modelKey,
                    upstream,
                    null,
                    priority,
                    weight);
        }
        int verdict = SelectionSteps.classify(
                isTried(tried, position, entry),
                weight <= 0,
                isFull(tried, entry),
                modelRow,
                entry.accountCoolingUntil,
                now);
        String detail = SelectionSteps.dropDetail(verdict, modelRow);
        if (serving == ProtocolRule.Serving.BRIDGED) {
            String bridge = "bridge " + request.protocolRule().bridgeLabel(request.protocol(), credential)
                    + (policy == BridgePolicy.NATIVE_FIRST ? " (native credentials first)" : "");
            detail = detail == null ? bridge : detail + "; " + bridge;
        }
        RouteTrace.Verdict shown = verdict == SelectionSteps.ELIGIBLE
                ? RouteTrace.Verdict.ELIGIBLE
                : verdict == SelectionSteps.COOLING ? RouteTrace.Verdict.COOLING : RouteTrace.Verdict.DROPPED;
        return new RouteTrace.CredentialTrace(
                entry.id,
                credential.name(),
                5,
                shown,
                SelectionSteps.reasonOf(verdict),
                detail,
                modelKey,
                upstream,
                verdict == SelectionSteps.COOLING
                        ? SelectionSteps.recoveryAt(entry.accountCoolingUntil, modelRow)
                        : null,
                priority,
                weight);
    }

    /** A row for a credential dropped before the model key is known (steps 1–3). */
    private static RouteTrace.CredentialTrace row(
            CredentialEntry entry, int step, RouteTrace.Verdict verdict, ReasonCode reason, String detail) {
        return new RouteTrace.CredentialTrace(
                entry.id,
                entry.snapshot.name(),
                step,
                verdict,
                reason,
                detail,
                null,
                null,
                null,
                entry.snapshot.priority(),
                0);
    }

    /** Per-request scratch for one group's outcome; reset for every group. */
    private static final class Pick {
        int position;
        boolean affinityHit;
        boolean fallback;
        Instant recoveryAt;
        ReasonCode failure;
        /** The group's soonest-recovering cooling candidate when nothing was eligible, or -1. */
        int coolingPosition;

        Instant coolingUntil;

        void reset() {
            position = -1;
            affinityHit = false;
            fallback = false;
            recoveryAt = null;
            failure = null;
            coolingPosition = -1;
            coolingUntil = null;
        }
    }
}
