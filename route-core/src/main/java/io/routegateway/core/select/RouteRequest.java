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
 */
public record RouteRequest(
        AccessKeySnapshot accessKey, Protocol protocol, String requestedModel, AffinityKey affinityKey) {

    public RouteRequest {
        if (protocol == null) {
            throw new IllegalArgumentException("protocol is required");
        }
    }

    /** A request whose affinity key is derived from its body ({@link Affinity#promptPrefix}). */
    public static RouteRequest of(
            AccessKeySnapshot accessKey, Protocol protocol, String requestedModel, JsonNode body) {
        AffinityKey affinityKey = accessKey == null
                ? null
                : Affinity.key(accessKey.accessKeyId(), protocol, Affinity.promptPrefix(protocol, body));
        return new RouteRequest(accessKey, protocol, requestedModel, affinityKey);
    }
}
