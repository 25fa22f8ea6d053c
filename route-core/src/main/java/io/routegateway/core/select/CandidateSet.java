package io.routegateway.core.select;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

import io.routegateway.core.event.CredentialSnapshot;

/**
 * Selection steps 1–3 for one (group, requested model), precomputed: the candidates in original
 * order (priority, then credential id) with their model key, upstream name and priority tier, or
 * the step that emptied the set. Depends only on the "routing shape" of the credentials (see {@link
 * PoolView#with(CredentialSnapshot)}), never on cooldowns or model rows, so it survives state
 * updates.
 */
final class CandidateSet {

    /**
     * {@code no_credentials}, {@code route_pool.no_enabled_credentials}, {@code
     * route_pool.model_unmatched}, or null.
     */
    final ReasonCode failure;
    /** Whether any member's mappings serve the model, health ignored (group exposure). */
    final boolean servedByAnyMember;

    final int size;
    final int[] ordinals;
    final String[] modelKeys;
    final String[] upstreamModels;
    final int[] priorities;
    /** For each position, the first position of its priority tier. */
    final int[] tierStart;
    /** For each position, the first position after its priority tier. */
    final int[] tierEnd;

    private final Map<String, Integer> positions;
    /** Prefix sums of the weights, for the weights array they were computed from. */
    private volatile PrefixSums prefixSums;

    private static final class PrefixSums {
        final int[] weights;
        final long[] sums;

        PrefixSums(int[] weights, long[] sums) {
            this.weights = weights;
            this.sums = sums;
        }
    }

    private CandidateSet(
            ReasonCode failure,
            boolean servedByAnyMember,
            int size,
            int[] ordinals,
            String[] ids,
            String[] modelKeys,
            String[] upstreamModels,
            int[] priorities) {
        this.failure = failure;
        this.servedByAnyMember = servedByAnyMember;
        this.size = size;
        this.ordinals = ordinals;
        this.modelKeys = modelKeys;
        this.upstreamModels = upstreamModels;
        this.priorities = priorities;
        this.tierEnd = new int[size];
        for (int i = size - 1; i >= 0; i--) {
            tierEnd[i] = i + 1 < size && priorities[i + 1] == priorities[i] ? tierEnd[i + 1] : i + 1;
        }
        this.tierStart = new int[size];
        for (int i = 0; i < size; i++) {
            tierStart[i] = i > 0 && priorities[i - 1] == priorities[i] ? tierStart[i - 1] : i;
        }
        this.positions = new HashMap<>(Math.max(4, size * 2));
        for (int i = 0; i < size; i++) {
            positions.put(ids[i], i);
        }
    }

    /**
     * {@code sums[i]} = total weight of positions {@code [0, i)} under {@code weights} (a view's
     * per-ordinal effective weights). Cached for the last weights array seen: a view update that
     * changes no weight keeps the same array, so the sums survive it; a view with new stats
     * recomputes them once (O(size)).
     */
    long[] prefixSums(int[] weights) {
        PrefixSums cached = prefixSums;
        if (cached != null && cached.weights == weights) {
            return cached.sums;
        }
        long[] sums = new long[size + 1];
        for (int i = 0; i < size; i++) {
            sums[i + 1] = sums[i] + weights[ordinals[i]];
        }
        prefixSums = new PrefixSums(weights, sums);
        return sums;
    }

    /** Position of a credential among the candidates, or -1. */
    int position(String credentialId) {
        Integer position = positions.get(credentialId);
        return position == null ? -1 : position;
    }

    /**
     * Runs steps 1–3 over the group's members.
     *
     * @param members ordinals into {@code entries}, in original order
     * @param model null when the request names no model
     */
    static CandidateSet build(CredentialEntry[] entries, int[] members, String model) {
        if (members.length == 0) {
            return failed(ReasonCode.NO_CREDENTIALS, false);
        }
        boolean served = model == null;
        int n = members.length;
        int[] ordinals = new int[n];
        String[] ids = new String[n];
        String[] modelKeys = new String[n];
        String[] upstreams = new String[n];
        int[] priorities = new int[n];
        int enabled = 0;
        int authUnavailable = 0;
        int size = 0;
        for (int member : members) {
            CredentialSnapshot credential = entries[member].snapshot;
            Optional<PoolCandidate> resolved = SelectionSteps.resolveModel(credential, model);
            served |= resolved.isPresent();
            ReasonCode load = SelectionSteps.loadRejection(credential);
            if (load == ReasonCode.CREDENTIAL_AUTH_UNAVAILABLE) {
                authUnavailable++;
            }
            if (load != null || !SelectionSteps.passesPlatformRule(credential)) {
                continue;
            }
            enabled++;
            if (resolved.isEmpty()) {
                continue;
            }
            ordinals[size] = member;
            ids[size] = credential.credentialId();
            modelKeys[size] = resolved.get().modelKey();
            upstreams[size] = resolved.get().upstreamModel();
            priorities[size] = credential.priority();
            size++;
        }
        if (enabled == 0) {
            return failed(
                    authUnavailable == n ? ReasonCode.CREDENTIAL_AUTH_UNAVAILABLE : ReasonCode.NO_ENABLED_CREDENTIALS,
                    served);
        }
        if (size == 0) {
            return failed(ReasonCode.MODEL_UNMATCHED, served);
        }
        return new CandidateSet(null, served, size, ordinals, ids, modelKeys, upstreams, priorities);
    }

    private static CandidateSet failed(ReasonCode failure, boolean served) {
        return new CandidateSet(
                failure, served, 0, new int[0], new String[0], new String[0], new String[0], new int[0]);
    }
}
