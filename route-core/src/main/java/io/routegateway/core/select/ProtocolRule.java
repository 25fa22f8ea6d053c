package io.routegateway.core.select;

import io.routegateway.core.event.CredentialSnapshot;
import io.routegateway.core.model.Protocol;

/**
 * How credentials can serve a request of a given client protocol: natively, through a protocol
 * bridge, or not at all. An input of {@link Router}, so the gateway and route check apply the same
 * rule. {@link #NATIVE} allows no conversion; the gateway's rule ({@code core.bridge.BridgePlan})
 * converts the request once per upstream protocol and says whether the conversion can express it.
 *
 * <p>A credential the rule refuses is left out of selection like one already tried, so it is never
 * the cooling fallback either, and a group left with nothing it can serve hands over to the next
 * group. When that is all that stood in the way the refusal is {@code native_route_required}
 * (no conversion allowed) or {@code operation_unsupported} (the conversion cannot express the
 * request). The group's {@code BridgePolicy} is applied by the Router on top of the rule.
 */
@FunctionalInterface
public interface ProtocolRule {

    /** How one credential serves the request. */
    enum Serving {
        NATIVE,
        BRIDGED,
        /** Only a native credential may serve it: {@code native_route_required}. */
        NATIVE_REQUIRED,
        /** The conversion into the credential's protocol cannot express it: {@code operation_unsupported}. */
        UNSUPPORTED
    }

    /** Only credentials whose platform speaks the client protocol natively. */
    ProtocolRule NATIVE =
            (credential, protocol) -> platformSpeaks(credential, protocol) ? Serving.NATIVE : Serving.NATIVE_REQUIRED;

    /** How {@code credential} can serve a request sent in {@code protocol}. */
    Serving serving(CredentialSnapshot credential, Protocol protocol);

    /** Why the conversion cannot express the request, for the client's message; null when it can. */
    default String unsupportedDetail() {
        return null;
    }

    /**
     * Whether {@code credential} serves {@code protocol} without conversion; must be cheap (it is
     * asked before any conversion) and agree with {@link #serving} answering {@link Serving#NATIVE}.
     */
    default boolean isNative(CredentialSnapshot credential, Protocol protocol) {
        return platformSpeaks(credential, protocol);
    }

    /**
     * The label of the bridge a request of {@code client} takes to {@code credential} (not a native
     * one), for route check's trace: {@code client->upstream} protocol.
     */
    default String bridgeLabel(Protocol client, CredentialSnapshot credential) {
        return client.wire() + "->" + credential.platform().primaryProtocol().wire();
    }

    /** Whether the credential's platform speaks {@code protocol} itself. */
    static boolean platformSpeaks(CredentialSnapshot credential, Protocol protocol) {
        return credential.platform() != null && credential.platform().servesNatively(protocol);
    }
}
