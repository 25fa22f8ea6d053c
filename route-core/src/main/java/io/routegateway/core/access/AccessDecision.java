package io.routegateway.core.access;

import java.time.Instant;

import io.routegateway.core.event.AccessKeySnapshot;
import io.routegateway.core.model.Protocol;
import io.routegateway.core.select.ReasonCode;

/**
 * The first two stages of the request path — authentication, then the protocol check and the
 * model filter — as one pure decision. Checks run in the spec's order and the first failing one
 * decides:
 *
 * <ol>
 *   <li>no key with that hash → {@code invalid_access_key} (401)
 *   <li>{@code enabled = false} → {@code access_key_disabled} (401)
 *   <li>{@code expires_at} at or before {@code now} → {@code access_key_expired} (401)
 *   <li>protocol not among a non-empty {@code allowed_protocols} → {@code protocol_filtered} (403)
 *   <li>the key restricts models and the request names none → {@code model_required_by_filter}
 *       (403)
 *   <li>the model matches no pattern of a non-empty {@code allowed_models} → {@code model_filtered}
 *       (403); see {@link ModelPatterns}
 * </ol>
 */
public sealed interface AccessDecision permits AccessDecision.Allowed, AccessDecision.Refused {

    /** The key may make this request. */
    record Allowed(AccessKeySnapshot key) implements AccessDecision {}

    /** The key may not; {@code code.httpStatus()} is 401 or 403. */
    record Refused(ReasonCode code, String message) implements AccessDecision {}

    default boolean allowed() {
        return this instanceof Allowed;
    }

    /**
     * @param key the key found by hash, or null when none matched
     * @param requestedModel null or blank when the request carries no model name
     */
    static AccessDecision decide(AccessKeySnapshot key, Protocol protocol, String requestedModel, Instant now) {
        if (key == null) {
            return refuse(ReasonCode.INVALID_ACCESS_KEY, null);
        }
        if (!key.enabled()) {
            return refuse(ReasonCode.ACCESS_KEY_DISABLED, key.name());
        }
        if (key.expiresAt() != null && !now.isBefore(key.expiresAt())) {
            return refuse(ReasonCode.ACCESS_KEY_EXPIRED, key.name() + ", expired at " + key.expiresAt());
        }
        if (!key.allowedProtocols().isEmpty() && !key.allowedProtocols().contains(protocol)) {
            return refuse(ReasonCode.PROTOCOL_FILTERED, protocol == null ? null : protocol.wire());
        }
        if (!key.allowedModels().isEmpty()) {
            if (requestedModel == null || requestedModel.isBlank()) {
                return refuse(ReasonCode.MODEL_REQUIRED_BY_FILTER, null);
            }
            if (!ModelPatterns.matchesAny(key.allowedModels(), requestedModel)) {
                return refuse(ReasonCode.MODEL_FILTERED, requestedModel);
            }
        }
        return new Allowed(key);
    }

    private static Refused refuse(ReasonCode code, String detail) {
        return new Refused(code, detail == null ? code.meaning() : code.meaning() + ": " + detail);
    }
}
