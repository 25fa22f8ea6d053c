package io.routegateway.core.forward;

import io.routegateway.core.failure.FailureKind;
import io.routegateway.core.failure.Verdict;

/**
 * What the gateway's own error messages may tell a client. They go to whoever holds an AccessKey,
 * so they never carry the credential's base URL or an internal host (transport errors name both),
 * and client text inside them (a model name in a routing refusal) is bounded and stripped of
 * control characters: a 100 KB model name is not echoed back.
 */
public final class ClientMessages {

    /** Longest message a client is sent, in characters. */
    public static final int MAX_LENGTH = 512;

    static final String TRANSPORT_DETAIL = "the upstream could not be reached or did not answer in time";

    private ClientMessages() {}

    /**
     * {@code message} with control characters and unpaired surrogates replaced by {@code ?} and cut
     * to {@link #MAX_LENGTH} characters (the cut is said, with the number of characters left out).
     */
    public static String bounded(String message) {
        if (message == null) {
            return null;
        }
        int keep = Math.min(message.length(), MAX_LENGTH);
        if (keep < message.length() && Character.isHighSurrogate(message.charAt(keep - 1))) {
            keep--;
        }
        StringBuilder out = null;
        for (int i = 0; i < keep; i++) {
            char c = message.charAt(i);
            boolean paired = Character.isHighSurrogate(c)
                    ? i + 1 < message.length() && Character.isLowSurrogate(message.charAt(i + 1))
                    : Character.isLowSurrogate(c) && i > 0 && Character.isHighSurrogate(message.charAt(i - 1));
            boolean unsafe = Character.isISOControl(c) || (Character.isSurrogate(c) && !paired);
            if (unsafe && out == null) {
                out = new StringBuilder(keep + 32).append(message, 0, i);
            }
            if (out != null) {
                out.append(unsafe ? '?' : c);
            }
        }
        String text = out == null ? message.substring(0, keep) : out.toString();
        if (keep < message.length()) {
            text += "… (" + (message.length() - keep) + " more characters)";
        }
        return text;
    }

    /**
     * The last failure of a request as a client may read it: its reason ({@code quota exhausted:
     * <upstream message>}, {@code credential revoked: …}, {@code upstream returned 503}, the
     * upstream's semantic failure message), but never a transport error's text, which names hosts
     * and ports. Null when nothing failed.
     */
    public static String lastFailure(Verdict verdict) {
        if (verdict instanceof Verdict.Transient failure) {
            return describe(failure.kind(), failure.message());
        }
        if (verdict instanceof Verdict.Permanent failure) {
            return "credential revoked: " + describe(failure.kind(), failure.message());
        }
        if (verdict instanceof Verdict.QuotaExhausted quota) {
            return "quota exhausted: " + quota.message();
        }
        return null;
    }

    private static String describe(FailureKind kind, String message) {
        if (kind == FailureKind.TRANSPORT || kind == FailureKind.MODEL_TEST) {
            return TRANSPORT_DETAIL;
        }
        return message;
    }
}
