package io.routegateway.core.select;

import io.routegateway.core.event.CredentialSnapshot;
import io.routegateway.core.model.Protocol;

/**
 * Which credentials can serve a request of a given client protocol: an input of {@link Router}, so
 * the gateway and route check apply the same rule. Today the only rule is {@link #NATIVE} (no
 * protocol conversion); a bridge plugs in as another rule.
 *
 * <p>A credential the rule refuses is left out of selection like one already tried, so it is never
 * the cooling fallback either, and a group left with nothing it can serve hands over to the next
 * group. When that is all that stood in the way the refusal is {@code native_route_required}.
 */
@FunctionalInterface
public interface ProtocolRule {

    /** Only credentials whose platform speaks the client protocol natively. */
    ProtocolRule NATIVE = (credential, protocol) ->
            credential.platform() != null && credential.platform().servesNatively(protocol);

    /** Whether {@code credential} can serve a request sent in {@code protocol}. */
    boolean serves(CredentialSnapshot credential, Protocol protocol);
}
