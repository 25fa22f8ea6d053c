package io.routegateway.gateway.view;

import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;

import jakarta.inject.Singleton;

import io.routegateway.core.event.RuntimeSettingsSnapshot;
import io.routegateway.core.select.PoolView;

/**
 * The current {@link PoolView}, swapped atomically (copy-on-write): the request path reads it
 * with one volatile load and never locks; writers (the state-topic reader, this replica's own
 * outcomes, the weight refresh) compute the next generation with a pure function and retry on a
 * concurrent swap. The runtime settings published on {@code route.settings} live here too.
 */
@Singleton
public class PoolViewHolder {

    private final AtomicReference<PoolView> current = new AtomicReference<>(PoolView.EMPTY);
    /** The newest published runtime settings; null until one was read (gateway config applies). */
    private final AtomicReference<RuntimeSettingsSnapshot> settings = new AtomicReference<>();

    public PoolView pool() {
        return current.get();
    }

    /** The newest runtime settings read from {@code route.settings}, null when none were ever published. */
    public RuntimeSettingsSnapshot settings() {
        return settings.get();
    }

    /**
     * Takes {@code next} if its version is higher than the held one (versions only move forward).
     *
     * @return whether the settings changed
     */
    public boolean updateSettings(RuntimeSettingsSnapshot next) {
        while (true) {
            RuntimeSettingsSnapshot held = settings.get();
            if (held != null && next.version() <= held.version()) {
                return false;
            }
            if (settings.compareAndSet(held, next)) {
                return true;
            }
        }
    }

    /** The published blacklist threshold, 0 (off) when no settings were ever published. */
    public int blacklistThreshold() {
        RuntimeSettingsSnapshot held = settings.get();
        return held == null ? 0 : held.blacklistThreshold();
    }

    /**
     * Replaces the view with {@code change(view)}; {@code change} must be free of side effects (it
     * may run more than once under contention). Returning the same instance changes nothing.
     *
     * @return whether the view changed
     */
    public boolean update(UnaryOperator<PoolView> change) {
        while (true) {
            PoolView before = current.get();
            PoolView next = change.apply(before);
            if (next == before) {
                return false;
            }
            if (current.compareAndSet(before, next)) {
                return true;
            }
        }
    }
}
