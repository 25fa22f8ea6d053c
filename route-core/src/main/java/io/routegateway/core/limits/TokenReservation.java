package io.routegateway.core.limits;

/**
 * The tokens a request holds against {@code tpm_limit} while it runs: the prompt's estimate plus
 * the most it may write — the request's own {@code max_tokens} / {@code max_completion_tokens} /
 * {@code max_output_tokens} / {@code generationConfig.maxOutputTokens} (read by the caller), or
 * {@value #DEFAULT_OUTPUT_TOKENS} when it sets none. Its close settles the real count.
 */
public final class TokenReservation {

    /** Output tokens reserved for a request that does not bound its output. */
    public static final long DEFAULT_OUTPUT_TOKENS = 1024;

    /** No reservation exceeds the largest tpm_limit there can be. */
    public static final long MAX = Limits.MAX_TPM;

    private TokenReservation() {}

    /**
     * {@code promptEstimate} (negative = 0) plus {@code maxOutputTokens} (null or negative = the
     * default), within 0..{@link #MAX}.
     */
    public static long of(long promptEstimate, Long maxOutputTokens) {
        long prompt = Math.max(0, Math.min(promptEstimate, MAX));
        long output =
                maxOutputTokens == null || maxOutputTokens < 0 ? DEFAULT_OUTPUT_TOKENS : Math.min(maxOutputTokens, MAX);
        return Math.min(prompt + output, MAX);
    }

    /**
     * {@code reservation} capped at {@code tpmLimit} (null = no cap): a request larger than the
     * whole minute's tokens still runs when the minute is free, rather than never.
     */
    public static long capped(long reservation, Long tpmLimit) {
        long bounded = Math.max(0, Math.min(reservation, MAX));
        return tpmLimit == null ? bounded : Math.min(bounded, tpmLimit);
    }
}
