package io.routegateway.core.select;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.random.RandomGenerator;

import io.routegateway.core.event.CredentialSnapshot;
import io.routegateway.core.model.WeightMode;

/**
 * The choice among the eligible credentials of one pool:
 *
 * <ol>
 *   <li>the affinity credential, if it is among the eligible (it is never pinned to a cooling,
 *       blacklisted, paused or already-tried credential — those are not eligible);
 *   <li>otherwise the lowest priority number present;
 *   <li>weighted random inside that tier: with one candidate no random number is drawn; with more,
 *       {@code r = rng.nextLong(total)} and the candidates are walked in original order until the
 *       running weight exceeds {@code r}.
 * </ol>
 *
 * <p>Weights: manual mode uses the configured 1..100; automatic mode uses {@link
 * CredentialStats#autoWeight()}. Weight 0 (legacy manual) is never chosen — selection drops it as
 * {@code credential_weight_zero} before the partition.
 *
 * <p>{@link Router} picks from the same distribution over its precomputed arrays, but samples it by
 * rejection (draws differ, probabilities do not); this list form is the reference the router is
 * tested against.
 */
public final class CredentialChooser {

    private CredentialChooser() {}

    /** Manual weight as configured (0 or less → 0); automatic weight from the recent counts. */
    public static int effectiveWeight(CredentialSnapshot credential, CredentialStats stats) {
        if (credential.weightMode() == WeightMode.MANUAL) {
            return Math.max(0, credential.weight());
        }
        return (stats == null ? CredentialStats.NONE : stats).autoWeight();
    }

    /**
     * Picks one of {@code eligible} (in original order).
     *
     * @param affinityCredentialId the remembered credential, or null
     * @param stats recent counts by credential id (missing = no history)
     * @return empty only when nothing has a weight above 0
     */
    public static Optional<Choice> choose(
            List<PoolCandidate> eligible,
            String affinityCredentialId,
            Map<String, CredentialStats> stats,
            RandomGenerator rng) {
        if (affinityCredentialId != null) {
            for (PoolCandidate candidate : eligible) {
                if (candidate.credentialId().equals(affinityCredentialId) && weight(candidate, stats) > 0) {
                    return Optional.of(new Choice(candidate, true));
                }
            }
        }
        int tier = Integer.MAX_VALUE;
        for (PoolCandidate candidate : eligible) {
            if (weight(candidate, stats) > 0) {
                tier = Math.min(tier, candidate.credential().priority());
            }
        }
        long total = 0;
        int count = 0;
        PoolCandidate only = null;
        for (PoolCandidate candidate : eligible) {
            int weight = weight(candidate, stats);
            if (candidate.credential().priority() == tier && weight > 0) {
                total += weight;
                count++;
                only = candidate;
            }
        }
        if (count == 0) {
            return Optional.empty();
        }
        if (count == 1) {
            return Optional.of(new Choice(only, false));
        }
        long r = rng.nextLong(total);
        for (PoolCandidate candidate : eligible) {
            int weight = weight(candidate, stats);
            if (candidate.credential().priority() == tier && weight > 0) {
                r -= weight;
                if (r < 0) {
                    return Optional.of(new Choice(candidate, false));
                }
            }
        }
        throw new IllegalStateException("weighted walk ended without a pick");
    }

    /** The chosen candidate and whether the affinity decided it. */
    public record Choice(PoolCandidate candidate, boolean affinityHit) {}

    private static int weight(PoolCandidate candidate, Map<String, CredentialStats> stats) {
        return effectiveWeight(candidate.credential(), stats.get(candidate.credentialId()));
    }
}
