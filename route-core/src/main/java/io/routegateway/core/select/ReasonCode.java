package io.routegateway.core.select;

import java.util.Locale;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * Every routing reason code, defined once: the stable wire code (the {@code error.code} of a
 * refusal and the codes of route check and request logs), the HTTP status a client sees when the
 * code ends a request, and the spec's meaning and how-to-handle text.
 *
 * <p>Statuses: AccessKey refusals are 401 (the key itself is not usable: unknown, disabled,
 * expired) or 403 (the key is valid but does not cover this request); every pool, group and
 * credential failure is 502 — the client never sees an upstream status, the actionable information
 * is the code.
 *
 * <p>Codes that are not in the scheduling page's table: {@link #INVALID_ACCESS_KEY} (no key with
 * that hash exists; the page only says authentication verifies that the key "is valid") and {@link
 * #NO_ENABLED_CREDENTIALS} (the reliability page's step-2 error, whose message is spelled out
 * verbatim but which has no code there).
 *
 * <p>{@link #OPERATION_UNSUPPORTED} and {@link #NATIVE_ROUTE_REQUIRED} concern protocol bridging:
 * the first is emitted by the forwarding layer for an operation it does not serve (502) and by
 * {@link Router} when only credentials whose conversion cannot express the request are left (400,
 * see {@link RouteResult.Refused#httpStatus}), the second by {@link Router} when only a native
 * credential may serve the request (native-only request or group) and none can.
 */
public enum ReasonCode {
    INVALID_ACCESS_KEY(
            "invalid_access_key",
            401,
            "authentication_error",
            "No AccessKey matches the presented key (missing, mistyped, or deleted)",
            "Send a valid AccessKey in Authorization: Bearer, x-api-key, or x-goog-api-key / ?key= for Gemini"),
    ACCESS_KEY_DISABLED(
            "access_key_disabled",
            401,
            "authentication_error",
            "AccessKey has been deactivated",
            "Enable it on the AccessKeys page"),
    ACCESS_KEY_EXPIRED(
            "access_key_expired",
            401,
            "authentication_error",
            "AccessKey has expired",
            "Create a new key or extend validity"),
    PROTOCOL_FILTERED(
            "protocol_filtered",
            403,
            "permission_error",
            "This key has not selected this protocol",
            "Add a check for the corresponding protocol in the key"),
    MODEL_FILTERED(
            "model_filtered",
            403,
            "permission_error",
            "Requested model is not within the allowed range",
            "Check model limitations for the key"),
    MODEL_REQUIRED_BY_FILTER(
            "model_required_by_filter",
            403,
            "permission_error",
            "The key restricts models, but the request carried no model name",
            "Name the model explicitly in the request, or drop the key's model restriction"),
    OPERATION_UNSUPPORTED(
            "operation_unsupported",
            502,
            "routing_error",
            "The channel does not support this operation under that protocol",
            "Switch to a Group that supports the capability; see Protocols and conversion limits"),
    NATIVE_ROUTE_REQUIRED(
            "native_route_required",
            502,
            "routing_error",
            "The request requires a native route, but this Group can only serve it through conversion",
            "Use a Group whose protocol matches the client"),
    NO_ROUTE_TARGET(
            "no_route_target",
            502,
            "routing_error",
            "No routable target was found",
            "Confirm the key has authorized at least one Group"),
    GROUP_DISABLED("group_disabled", 502, "routing_error", "Group is deactivated", "Enable this Group"),
    GROUP_FILTERED(
            "group_filtered",
            502,
            "routing_error",
            "Group is not within the authorization scope of this key",
            "Add this Group in the key"),
    NO_AVAILABLE_GROUP(
            "no_available_group",
            502,
            "routing_error",
            "No Group can provide this model",
            "Confirm the model is open in some Group"),
    NO_CREDENTIALS(
            "no_credentials",
            502,
            "routing_error",
            "There is not a single credential in the Group.",
            "Add credentials to the Group"),
    GROUP_WEIGHT_ZERO(
            "group_weight_zero",
            502,
            "routing_error",
            "A legacy configuration has a Group weight of 0",
            "Switch to automatic weight or a manual weight from 1 to 100"),
    CREDENTIAL_DISABLED(
            "credential_disabled",
            502,
            "routing_error",
            "Credential has been deactivated",
            "Enable it, or depend on other credentials"),
    CREDENTIAL_AUTH_UNAVAILABLE(
            "credential_auth_unavailable",
            502,
            "routing_error",
            "Subscription account authorization has expired",
            "Reauthorize, see subscription account page"),
    CREDENTIAL_BLACKLISTED(
            "credential_blacklisted",
            502,
            "routing_error",
            "Credential has been blacklisted",
            "Restore it after confirming the credential itself is valid"),
    CREDENTIAL_COOLDOWN(
            "credential_cooldown",
            502,
            "routing_error",
            "Credential is in cooldown",
            "Wait for automatic recovery, or add more credentials to share the load"),
    CREDENTIAL_WEIGHT_ZERO(
            "credential_weight_zero",
            502,
            "routing_error",
            "A credential weight of 0 left over from an old configuration",
            "Switch to automatic weight or a manual weight from 1 to 100"),
    /**
     * The credential is at its own {@code rpm_limit} or {@code max_parallel_requests} (its relay's
     * limits, counted over every gateway replica): skipped, never recorded as a failure.
     */
    CREDENTIAL_FULL(
            "credential_full",
            502,
            "routing_error",
            "Credential is at its own requests-per-minute or parallel-requests limit",
            "Wait for a slot to free, raise the credential's limits, or add credentials"),
    CREDENTIAL_NOT_ALLOWED(
            "credential_not_allowed",
            502,
            "routing_error",
            "This request already excluded this credential",
            "Expected behavior; a retry will not hit the one that just failed"),
    NO_AVAILABLE_CREDENTIAL(
            "no_available_credential",
            502,
            "routing_error",
            "All credentials are unavailable",
            "Check the health page; most likely it's a collective rate limit or key expiration."),
    /** Selection step 2 emptied the set; the message is the spec's, verbatim. */
    NO_ENABLED_CREDENTIALS(
            "route_pool.no_enabled_credentials",
            502,
            "routing_error",
            "No enabled route credentials in pool",
            "Enable a credential in this Group's pool whose kind the platform accepts"),
    /** Selection step 3 emptied the set. */
    MODEL_UNMATCHED(
            "route_pool.model_unmatched",
            502,
            "routing_error",
            "No account maps this model at all",
            "Add it to an account's model mappings"),
    /** Selection step 5 emptied the set: only hard exclusions (paused / error) can do that. */
    MODEL_UNAVAILABLE(
            "route_pool.model_unavailable",
            502,
            "routing_error",
            "Accounts do serve this model, but on all of them it is paused or marked unhealthy",
            "Clear the pause/error in the 模型状态 section under the edit drawer's 故障处理 tab");

    private final String wire;
    private final int httpStatus;
    private final String errorType;
    private final String meaning;
    private final String howToHandle;

    ReasonCode(String wire, int httpStatus, String errorType, String meaning, String howToHandle) {
        this.wire = wire;
        this.httpStatus = httpStatus;
        this.errorType = errorType;
        this.meaning = meaning;
        this.howToHandle = howToHandle;
    }

    /** The stable code, e.g. {@code route_pool.model_unmatched}. */
    @JsonValue
    public String wire() {
        return wire;
    }

    /** The HTTP status of a client response that ends with this code. */
    public int httpStatus() {
        return httpStatus;
    }

    /** The {@code error.type} of the error body. */
    public String errorType() {
        return errorType;
    }

    /** The spec's "Meaning" column. */
    public String meaning() {
        return meaning;
    }

    /** The spec's "How to handle" / "What to do" column. */
    public String howToHandle() {
        return howToHandle;
    }

    /** Whether the code refuses the AccessKey itself (401/403) rather than the pool (502). */
    public boolean isKeyRefusal() {
        return httpStatus == 401 || httpStatus == 403;
    }

    @JsonCreator
    public static ReasonCode fromWire(String value) {
        if (value != null) {
            String normalized = value.trim().toLowerCase(Locale.ROOT);
            for (ReasonCode code : values()) {
                if (code.wire.equals(normalized)) {
                    return code;
                }
            }
        }
        throw new IllegalArgumentException("unknown reason code: " + value);
    }
}
