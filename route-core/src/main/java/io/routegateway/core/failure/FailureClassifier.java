package io.routegateway.core.failure;

import java.util.List;
import java.util.Locale;

/**
 * The building blocks of the spec's three-way classification ({@code ProxyFailureKind}), composed
 * by {@link OutcomeClassifier} (the one classification production runs), and the same-credential
 * retry rule. Permanent text wins over a failure status (a void credential must not be backed off as if it
 * were throttled), but only as evidence about the credential: it never turns a status that is not a
 * failure (400, 404, 422, …) into one, and a marker the client itself sent is not evidence (it may
 * be the upstream echoing the request, see {@link ClientEcho}).
 */
public final class FailureClassifier {

    /** Matched case-insensitively as substrings of the error text; any match means the credential is void. */
    public static final List<String> PERMANENT_MARKERS =
            List.of("invalid_grant", "refresh token has been revoked", "token has been revoked", "官方 oauth 凭证已失效");

    private FailureClassifier() {}

    /** The status layer alone: transient for 408/401/403/429/5xx/no status, none otherwise. */
    public static FailureClass classifyStatus(Integer status) {
        if (status == null || isRetryableStatus(status) || isServerError(status)) {
            return FailureClass.TRANSIENT;
        }
        return FailureClass.NONE;
    }

    /**
     * Whether an error answer with this status may say anything about the credential: no status
     * (transport) and the failure statuses 408/401/403/429/5xx. A 2xx speaks only through a
     * structural failure envelope ({@link SemanticFailureDetector}); every other status is the
     * client's problem, whatever its body says.
     */
    public static boolean speaksAboutCredential(Integer status) {
        return classifyStatus(status) == FailureClass.TRANSIENT;
    }

    /** Whether the text names a void credential (one of {@link #PERMANENT_MARKERS}, any case). */
    public static boolean isPermanentText(String errorText) {
        return isPermanentEvidence(ClientEcho.NONE, errorText);
    }

    /**
     * Whether any of the upstream's own error texts carries a permanent marker that the client did
     * not send. A marker the client sent may be the upstream quoting the request back.
     */
    public static boolean isPermanentEvidence(ClientEcho echo, String... upstreamTexts) {
        for (String text : upstreamTexts) {
            if (text == null || text.isEmpty()) {
                continue;
            }
            String lower = text.toLowerCase(Locale.ROOT);
            for (String marker : PERMANENT_MARKERS) {
                if (lower.contains(marker) && !echo.sent(marker)) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * The spec's {@code should_retry_same_credential_status}: never on success, never on 401/403
     * (retrying an auth failure only trips upstream abuse controls sooner).
     */
    public static boolean shouldRetrySameCredentialStatus(int status) {
        return !isSuccess(status) && status != 401 && status != 403;
    }

    /**
     * The label of a status or transport failure: {@code upstream_status} / {@code transport} for
     * forwarding, {@code model_test_status} / {@code model_test} for a model test.
     *
     * @param status null for a transport-level failure
     */
    public static FailureKind kindFor(Integer status, boolean modelTest) {
        if (status == null) {
            return modelTest ? FailureKind.MODEL_TEST : FailureKind.TRANSPORT;
        }
        return modelTest ? FailureKind.MODEL_TEST_STATUS : FailureKind.UPSTREAM_STATUS;
    }

    public static boolean isSuccess(int status) {
        return status >= 200 && status <= 299;
    }

    static boolean isRetryableStatus(int status) {
        return status == 408 || status == 401 || status == 403 || status == 429;
    }

    static boolean isServerError(int status) {
        return status >= 500 && status <= 599;
    }
}
