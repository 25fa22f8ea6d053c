package io.routegateway.core.failure;

import io.routegateway.core.secretmask.SecretMatcher;

/**
 * Upstreams sometimes quote the key they were sent in an error body ("invalid api key sk-…"). Every
 * failure text leaves the process that holds the clear-text secret only after passing through here:
 * outcome events, the rows and snapshots built from them, model-test answers and the gateway's
 * error replies all carry {@value #MASK} where the credential's own secret stood, in whatever
 * encoding the upstream quoted it.
 */
public final class SecretMask {

    public static final String MASK = SecretMatcher.MASK;
    /** Shorter secrets are not searched for: they would mask ordinary words. */
    public static final int MIN_SECRET_LENGTH = SecretMatcher.MIN_SECRET_LENGTH;

    private SecretMask() {}

    /**
     * {@code text} with every occurrence of {@code secret} replaced by {@value #MASK}, in every
     * encoding an upstream may quote it in ({@link SecretMatcher}: JSON and URL escapes, base64,
     * hex); {@code text} itself when there is none.
     */
    public static String apply(String text, String secret) {
        if (text == null) {
            return null;
        }
        SecretMatcher matcher = SecretMatcher.of(secret);
        return matcher == null ? text : matcher.mask(text);
    }

    /** The same verdict with its message and upstream body masked; the same instance when nothing matched. */
    public static Verdict apply(Verdict verdict, String secret) {
        if (verdict instanceof Verdict.Transient failure) {
            String message = apply(failure.message(), secret);
            String body = apply(failure.body(), secret);
            return unchanged(failure.message(), message, failure.body(), body)
                    ? verdict
                    : new Verdict.Transient(
                            failure.kind(), failure.status(), message, body, failure.retrySameCredential());
        }
        if (verdict instanceof Verdict.Permanent failure) {
            String message = apply(failure.message(), secret);
            String body = apply(failure.body(), secret);
            return unchanged(failure.message(), message, failure.body(), body)
                    ? verdict
                    : new Verdict.Permanent(failure.kind(), failure.status(), message, body);
        }
        if (verdict instanceof Verdict.QuotaExhausted quota) {
            String message = apply(quota.message(), secret);
            String body = apply(quota.body(), secret);
            return unchanged(quota.message(), message, quota.body(), body) ? verdict : quota.withText(message, body);
        }
        return verdict;
    }

    @SuppressWarnings("StringEquality") // apply returns its argument itself when nothing matched
    private static boolean unchanged(String message, String maskedMessage, String body, String maskedBody) {
        return message == maskedMessage && body == maskedBody;
    }
}
