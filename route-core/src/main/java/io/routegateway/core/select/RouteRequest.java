package io.routegateway.core.select;

import com.fasterxml.jackson.databind.JsonNode;
import io.routegateway.core.event.AccessKeySnapshot;
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
        AffinityKey affinityKey = accessKey == null
                ? null
                : Affinity.key(accessKey.accessKeyId(), protocol, Affinity.promptPrefix(protocol, body));
        return new RouteRequest(accessKey, protocol, requestedModel, affinityKey);
    }

    /** Whether the request's rule lets {@code entry} serve it. */
    boolean serves(CredentialEntry entry) {
        return protocolRule.serves(entry.snapshot, protocol);
    }
}
