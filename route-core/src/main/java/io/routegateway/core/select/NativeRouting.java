package io.routegateway.core.select;

import java.time.Instant;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.random.RandomGenerator;

import io.routegateway.core.event.CredentialSnapshot;
import io.routegateway.core.model.Protocol;

/**
 * Routing without protocol bridges: a request can only go to a credential whose platform serves
 * its protocol natively ({@link io.routegateway.core.model.Platform#servesNatively}). Such
 * credentials are excluded from selection like credentials already tried in the request, so the
 * cooling fallback never picks them and a group left with no native candidate hands over to the
 * next group.
 *
 * <p>When routing then finds nothing, the refusal names the real cause: {@code
 * native_route_required} when the only thing in the way was the protocol (routing again without
 * that exclusion would have found a target, or refused only for lack of untried credentials);
 * otherwise the refusal routing gives without the exclusion, so a paused model still reads {@code
 * route_pool.model_unavailable}. Once a native credential has been tried in the request, "every
 * credential already tried" stays {@code no_available_credential}.
 */
public final class NativeRouting {

    private NativeRouting() {}

    /**
     * The credential ids of a view that cannot serve each protocol natively: computed once per view
     * and reused by every request routed on it.
     */
    public static Map<Protocol, Set<String>> nonNativeByProtocol(PoolView view) {
        Map<Protocol, Set<String>> byProtocol = new EnumMap<>(Protocol.class);
        for (Protocol protocol : Protocol.values()) {
            Set<String> ids = new HashSet<>();
            for (CredentialSnapshot credential : view.credentials()) {
                if (credential.platform() == null || !credential.platform().servesNatively(protocol)) {
                    ids.add(credential.credentialId());
                }
            }
            byProtocol.put(protocol, Collections.unmodifiableSet(ids));
        }
        return Collections.unmodifiableMap(byProtocol);
    }

    /**
     * {@link Router#route} restricted to native credentials.
     *
     * @param nonNative {@link #nonNativeByProtocol}'s set for the request's protocol
     * @param tried credentials already tried in this request; null = none
     */
    public static RouteResult route(
            PoolView view,
            RouteRequest request,
            Set<String> nonNative,
            Set<String> tried,
            AffinityTable affinity,
            RandomGenerator rng,
            Instant now,
            boolean trace) {
        return route(view, request, nonNative, tried, true, affinity, rng, now, trace);
    }

    /**
     * {@link Router#route(PoolView, RouteRequest, Set, boolean, AffinityTable, RandomGenerator,
     * Instant, boolean)} restricted to native credentials.
     */
    public static RouteResult route(
            PoolView view,
            RouteRequest request,
            Set<String> nonNative,
            Set<String> tried,
            boolean coolingProbe,
            AffinityTable affinity,
            RandomGenerator rng,
            Instant now,
            boolean trace) {
        Set<String> triedSoFar = tried == null ? Set.of() : tried;
        Set<String> excluded = union(nonNative, triedSoFar);
        RouteResult result = Router.route(view, request, excluded, coolingProbe, affinity, rng, now, trace);
        if (!(result instanceof RouteResult.Refused refused)
                || refused.code() != ReasonCode.NO_AVAILABLE_CREDENTIAL
                || nonNative.isEmpty()
                || !triedSoFar.isEmpty()) {
            return result;
        }
        RouteResult withoutProtocolRule = Router.route(view, request, triedSoFar, null, rng, now, false);
        if (withoutProtocolRule instanceof RouteResult.Refused other
                && other.code() != ReasonCode.NO_AVAILABLE_CREDENTIAL) {
            return new RouteResult.Refused(other.code(), other.message(), other.earliestRecoveryAt(), refused.trace());
        }
        ReasonCode code = ReasonCode.NATIVE_ROUTE_REQUIRED;
        String message =
                code.meaning() + ": no credential serves " + request.protocol().wire() + " natively";
        return new RouteResult.Refused(code, message, null, refused.trace());
    }

    private static Set<String> union(Set<String> a, Set<String> b) {
        if (b.isEmpty()) {
            return a;
        }
        if (a.isEmpty()) {
            return b;
        }
        Set<String> all = new HashSet<>(a);
        all.addAll(b);
        return all;
    }
}
