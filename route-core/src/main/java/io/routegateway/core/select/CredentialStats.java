package io.routegateway.core.select;

/**
 * Recent outcome counts of one credential, kept by the caller (the gateway counts its own
 * attempts over a sliding window it chooses) and supplied to {@link PoolView#withStats}. They drive
 * the automatic credential weight.
 *
 * @param recentSuccesses successful attempts in the caller's recent window, not negative
 * @param recentFailures failed attempts in the same window, not negative
 */
public record CredentialStats(int recentSuccesses, int recentFailures) {

    /** No history: the automatic weight is {@value #NO_HISTORY_WEIGHT}. */
    public static final CredentialStats NONE = new CredentialStats(0, 0);

    public static final int NO_HISTORY_WEIGHT = 50;

    public CredentialStats {
        if (recentSuccesses < 0 || recentFailures < 0) {
            throw new IllegalArgumentException("recent counts must not be negative");
        }
    }

    /**
     * The automatic weight: {@code max(1, round(100 * (s + 1) / (s + f + 2)))} — the Laplace-smoothed
     * success rate scaled to the manual range 1..100. No history gives 50; ten straight successes
     * 92; ten straight failures 8; it never reaches 0, so an auto-weighted credential always keeps a
     * small share and can prove it has recovered.
     */
    public int autoWeight() {
        double s = recentSuccesses;
        double f = recentFailures;
        long weight = Math.round(100.0 * (s + 1) / (s + f + 2));
        return (int) Math.max(1, Math.min(100, weight));
    }
}
