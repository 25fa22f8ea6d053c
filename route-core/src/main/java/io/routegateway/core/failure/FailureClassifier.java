package io.routegateway.core.failure;

import java.util.List;
import java.util.Locale;

/**
 * The spec's three-way classification ({@code ProxyFailureKind}) and the same-credential retry
 * rule. Permanent text wins over any status: a void credential must not be backed off as if it
 * were throttled.
 */
public final class FailureClassifier {

    /** Matched case-insensitively as substrings of the error text; any match means the credential is void. */
    public static final List<String> PERMANENT_MARKERS =
            List.of("invalid_grant", "refresh token has been revoked", "token has been revoked", "官方 oauth 凭证已失效");

    private FailureClassifier() {}

    /**
     * Permanent when the error text carries a permanent marker (whatever the status); otherwise
     * transient for 408/401/403/429, any 5xx and no status at all (transport); otherwise none
     * (including 2xx: a success body is judged by the semantic rules, not here).
     *
     * @param status upstream HTTP status, null when the request never got one
     * @param errorText error text or body, may be null
     */
    public static FailureClass classify(Integer status, String errorText) {
        if (isPermanentText(errorText)) {
            return FailureClass.PERMANENT;
        }
        return classifyStatus(status);
    }

    /** The status layer alone: transient for 408/401/403/429/5xx/no status, none otherwise. */
    public static FailureClass classifyStatus(Integer status) {
        if (status == null || isRetryableStatus(status) || isServerError(status)) {
            return FailureClass.TRANSIENT;
        }
        return FailureClass.NONE;
    }

    /** Whether the text names a void credential (one of {@link #PERMANENT_MARKERS}, any case). */
    public static boolean isPermanentText(String errorText) {
        if (errorText == null || errorText.isEmpty()) {
            return false;
        }
        String lower = errorText.toLowerCase(Locale.ROOT);
        for (String marker : PERMANENT_MARKERS) {
            if (lower.contains(marker)) {
                return true;
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
