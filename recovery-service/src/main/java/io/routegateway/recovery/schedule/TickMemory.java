package io.routegateway.recovery.schedule;

import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;

import jakarta.enterprise.context.ApplicationScoped;

/**
 * What the ticker remembers between ticks, in memory only (the spec: restarting the app restarts
 * the clock): the previous tick, which opens the scheduled window (previous tick, this tick], and
 * the last probe time per account. Forgotten whenever this replica (re)gains leadership, so a
 * replica that stood by for a while neither replays schedules the old leader already fired nor
 * trusts probe times from an earlier term.
 */
@ApplicationScoped
public class TickMemory {

    private final AtomicReference<Instant> previousTick = new AtomicReference<>();
    private final Map<String, Instant> lastProbes = new ConcurrentHashMap<>();

    /** Starts a new term: no previous tick, no probe times. */
    public void forget() {
        previousTick.set(null);
        lastProbes.clear();
    }

    /** Records this tick and returns the previous one, null on the first tick of a term. */
    public Instant advance(Instant thisTick) {
        return previousTick.getAndSet(thisTick);
    }

    /** When this replica last probed the account in this term, null if it has not. */
    public Instant lastProbe(String credentialId) {
        return lastProbes.get(credentialId);
    }

    public void probed(String credentialId, Instant at) {
        lastProbes.put(credentialId, at);
    }
}
