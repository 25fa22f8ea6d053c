package io.routegateway.gateway.view;

import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;

import jakarta.inject.Singleton;

import io.routegateway.core.select.PoolView;

/**
 * The current {@link RoutingView}, swapped atomically (copy-on-write): the request path reads it
 * with one volatile load and never locks; writers (the state-topic reader, this replica's own
 * outcomes, the weight refresh) compute the next generation with a pure function and retry on a
 * concurrent swap.
 */
@Singleton
public class PoolViewHolder {

    private final AtomicReference<RoutingView> current = new AtomicReference<>(RoutingView.EMPTY);

    public RoutingView current() {
        return current.get();
    }

    public PoolView pool() {
        return current.get().pool();
    }

    /**
     * Replaces the view with {@code change(view)}; {@code change} must be free of side effects (it
     * may run more than once under contention). Returning the same instance changes nothing.
     *
     * @return whether the view changed
     */
    public boolean update(UnaryOperator<PoolView> change) {
        while (true) {
            RoutingView before = current.get();
            PoolView next = change.apply(before.pool());
            if (next == before.pool()) {
                return false;
            }
            RoutingView after = sameCredentials(before.pool(), next)
                    ? new RoutingView(next, before.nonNative())
                    : RoutingView.of(next);
            if (current.compareAndSet(before, after)) {
                return true;
            }
        }
    }

    /** Whether the protocol exclusions can be kept: same credential ids with the same platforms. */
    private static boolean sameCredentials(PoolView before, PoolView after) {
        if (before.credentials().size() != after.credentials().size()) {
            return false;
        }
        return before.credentials().stream()
                .allMatch(credential -> after.credential(credential.credentialId())
                        .map(other -> other.platform() == credential.platform())
                        .orElse(false));
    }
}
