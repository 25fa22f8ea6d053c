package io.routegateway.core.failure;

/** Which cooldown layer a failure is charged to: the spec's {@code is_account_scoped_failure}. */
public final class FailureScope {

    private FailureScope() {}

    /**
     * True when the failure parks the whole account, false when it parks only the (account, model)
     * pair. Unknown kinds park the account: over-parking is recoverable, letting a broken credential
     * keep serving is not.
     */
    public static boolean isAccountScopedFailure(String kind, Integer status) {
        if (kind == null) {
            return true;
        }
        switch (kind) {
            case "refresh":
            case "request_build":
            case "transport":
            case "model_test":
                return true;
            case "upstream_status":
            case "model_test_status":
                return status != null && (status == 401 || status == 403);
            case "semantic_response_transient":
            case "response_transform":
                return false;
            default:
                return true;
        }
    }

    public static boolean isAccountScopedFailure(FailureKind kind, Integer status) {
        return isAccountScopedFailure(kind == null ? null : kind.label(), status);
    }

    /**
     * The scope actually applied: a failure without a model name degrades to account scope, so no
     * protection is lost. (Gemini requests carry their model in the path, which the gateway reads:
     * they are charged per model, a deliberate deviation listed in docs/spec-coverage.md.)
     */
    public static boolean chargesAccount(String kind, Integer status, String modelKey) {
        return modelKey == null || modelKey.isBlank() || isAccountScopedFailure(kind, status);
    }

    public static boolean chargesAccount(FailureKind kind, Integer status, String modelKey) {
        return chargesAccount(kind == null ? null : kind.label(), status, modelKey);
    }
}
