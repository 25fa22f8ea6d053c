package io.routegateway.core.select;

import com.fasterxml.jackson.databind.JsonNode;
import io.routegateway.core.event.AccessKeySnapshot;
import io.routegateway.core.event.CredentialSnapshot;
import io.routegateway.core.model.BridgePolicy;
import io.routegateway.core.model.Protocol;

/**
 * What routing needs to know about one client request.
 *
 * @param accessKey the key found by {@link PoolView#authenticate}, null when none matched (→
 *     {@code invalid_access_key})
 * @param protocol the client protocol, never null
 * @param requestedModel the model name from the body or, for Gemini, the URL path; null or blank
 *     when the request names none
 * @param affinityKey null: no affinity for this request
 * @param protocolRule which credentials can serve {@code protocol}; {@link ProtocolRule#NATIVE}
 *     unless given
 */
public record RouteRequest(
        AccessKeySnapshot accessKey,
        Protocol protocol,
        String requestedModel,
        AffinityKey affinityKey,
        ProtocolRule protocolRule) {

    public RouteRequest {
        if (protocol == null) {
            throw new IllegalArgumentException("protocol is required");
        }
        if (protocolRule == null) {
            protocolRule = ProtocolRule.NATIVE;
        }
    }

    /** A request under the native rule. */
    public RouteRequest(
            AccessKeySnapshot accessKey, Protocol protocol, String requestedModel, AffinityKey affinityKey) {
        this(accessKey, protocol, requestedModel, affinityKey, ProtocolRule.NATIVE);
    }

    /** A request whose affinity key is derived from its body ({@link Affinity#promptPrefix}). */
    public static RouteRequest of(
            AccessKeySnapshot accessKey, Protocol protocol, String requestedModel, JsonNode body) {
        return of(accessKey, protocol, requestedModel, body, ProtocolRule.NATIVE);
    }

    /** As {@link #of(AccessKeySnapshot, Protocol, String, JsonNode)}, under {@code rule}. */
    public static RouteRequest of(
            AccessKeySnapshot accessKey, Protocol protocol, String requestedModel, JsonNode body, ProtocolRule rule) {
        AffinityKey affinityKey = accessKey == null
                ? null
                : Affinity.key(accessKey.accessKeyId(), protocol, Affinity.promptPrefix(protocol, body));
        return new RouteRequest(accessKey, protocol, requestedModel, affinityKey, rule);
    }

    /**
     * This request for remembering where it was served once routing is over: the protocol rule,
     * which may hold the request body and its conversions, is replaced by {@link ProtocolRule#NATIVE}.
     */
    public RouteRequest affinityOnly() {
        return new RouteRequest(accessKey, protocol, requestedModel, affinityKey, ProtocolRule.NATIVE);
    }

    /**
     * How {@code entry} serves the request in a group with {@code policy}: the request's rule, with
     * the group's native-only policy on top.
     */
    ProtocolRule.Serving serving(CredentialEntry entry, BridgePolicy policy) {
        if (protocolRule.isNative(entry.snapshot, protocol)) {
            return ProtocolRule.Serving.NATIVE;
        }
        if (policy == BridgePolicy.NATIVE_ONLY || entry.snapshot.platform() == null) {
            return ProtocolRule.Serving.NATIVE_REQUIRED;
        }
        return protocolRule.serving(entry.snapshot, protocol);
    }

    /**
     * Whether {@code entry} serves the request in the current pass: native credentials always,
     * bridged ones only when {@code bridges} (the second pass of a native-first group, or any pass
     * of a group that mixes them).
     */
    boolean serves(CredentialEntry entry, boolean bridges, BridgePolicy policy) {
        if (protocolRule.isNative(entry.snapshot, protocol)) {
            return true;
        }
        if (!bridges) {
            return false;
        }
        ProtocolRule.Serving serving = serving(entry, policy);
        return serving == ProtocolRule.Serving.BRIDGED || serving == ProtocolRule.Serving.NATIVE;
    }

    /** Whether {@code credential} serves the request without conversion. */
    public boolean isNative(CredentialSnapshot credential) {
        return protocolRule.isNative(credential, protocol);
    }
}
