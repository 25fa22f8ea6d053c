package io.routegateway.core.forward;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import io.routegateway.core.event.CredentialEvent;
import io.routegateway.core.event.CredentialEvent.AttemptSucceeded;

/**
 * Which of a replica's outcome events go to {@code route.outcomes} now. Failures always go at once.
 * A success only clears (the account's failure traces and its model's row), so a run of successes
 * on one credential and model says no more than its latest one: a success that changed this
 * replica's view goes at once, and so does the first one of a key in a window; the others of that
 * window are held, only the latest kept, and go when the window ends. State-service thus still
 * hears within one window of every success that might clear a failure recorded elsewhere (another
 * replica, recovery-service), while a healthy pool under load costs one message per credential and
 * model per window instead of one per request.
 *
 * <p>Order per credential is kept: before any other event of a credential its held successes are
 * released, ahead of it, so state-service applies this replica's events of that credential in the
 * order they happened. Held successes of a credential whose newer state the caller learns are
 * dropped ({@link #forget}): that state may hold a failure recorded elsewhere after them. A window
 * of zero releases every success at once.
 *
 * <p>Not thread-safe; time is passed in. The gateway calls it under one lock.
 */
public final class SuccessCoalescer {

    /** Key of a held success. */
    private record Key(String credentialId, String modelKey) {}

    private final Duration window;
    /** When each key last had a success released; entries older than the window are pruned. */
    private final Map<Key, Instant> lastReleased = new LinkedHashMap<>();
    /** The latest held success per key, in the order those successes happened. */
    private final Map<Key, AttemptSucceeded> held = new LinkedHashMap<>();

    public SuccessCoalescer(Duration window) {
        Objects.requireNonNull(window, "window");
        if (window.isNegative()) {
            throw new IllegalArgumentException("the success window may not be negative: " + window);
        }
        this.window = window;
    }

    /**
     * The events to publish now for {@code event}, in order (empty when it is a success that is held).
     *
     * @param changedView whether the event changed this replica's view of its credential
     */
    public List<CredentialEvent> offer(CredentialEvent event, boolean changedView, Instant now) {
        Objects.requireNonNull(event, "event");
        Objects.requireNonNull(now, "now");
        if (event instanceof AttemptSucceeded success) {
            Key key = new Key(success.credentialId(), success.modelKey());
            Instant last = lastReleased.get(key);
            if (changedView || window.isZero() || last == null || !now.isBefore(last.plus(window))) {
                held.remove(key);
                lastReleased.put(key, now);
                return List.of(success);
            }
            // re-inserted, so held successes are released in the order they happened
            held.remove(key);
            held.put(key, success);
            return List.of();
        }
        List<CredentialEvent> out = new ArrayList<>(2);
        for (Iterator<Map.Entry<Key, AttemptSucceeded>> it = held.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<Key, AttemptSucceeded> entry = it.next();
            if (entry.getKey().credentialId().equals(event.credentialId())) {
                out.add(entry.getValue());
                lastReleased.put(entry.getKey(), now);
                it.remove();
            }
        }
        out.add(event);
        return out;
    }

    /** The held successes whose window has ended, to publish now; forgets keys idle for a window. */
    public List<CredentialEvent> due(Instant now) {
        Objects.requireNonNull(now, "now");
        List<CredentialEvent> out = new ArrayList<>();
        for (Iterator<Map.Entry<Key, AttemptSucceeded>> it = held.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<Key, AttemptSucceeded> entry = it.next();
            Instant last = lastReleased.get(entry.getKey());
            if (last == null || !now.isBefore(last.plus(window))) {
                out.add(entry.getValue());
                lastReleased.put(entry.getKey(), now);
                it.remove();
            }
        }
        lastReleased
                .entrySet()
                .removeIf(entry -> !held.containsKey(entry.getKey())
                        && !now.isBefore(entry.getValue().plus(window)));
        return out;
    }

    /**
     * Drops the held successes of these credentials without releasing them: the caller learnt a
     * newer state of theirs (one that may hold a failure recorded elsewhere after those successes),
     * so releasing them later could clear that failure with older evidence.
     */
    public void forget(Set<String> credentialIds) {
        Objects.requireNonNull(credentialIds, "credentialIds");
        if (held.isEmpty() || credentialIds.isEmpty()) {
            return;
        }
        held.keySet().removeIf(key -> credentialIds.contains(key.credentialId()));
    }

    /** Every held success, to publish at shutdown. */
    public List<CredentialEvent> drain() {
        List<CredentialEvent> out = new ArrayList<>(held.values());
        held.clear();
        lastReleased.clear();
        return out;
    }

    /** How many successes are held now. */
    public int heldCount() {
        return held.size();
    }

    /** How many successes of this credential are held now. */
    public int heldCount(String credentialId) {
        return (int) held.keySet().stream()
                .filter(key -> key.credentialId().equals(credentialId))
                .count();
    }

    /** How many keys are remembered now (held or released within the window): the memory bound. */
    public int rememberedKeys() {
        return lastReleased.size()
                + (int) held.keySet().stream()
                        .filter(key -> !lastReleased.containsKey(key))
                        .count();
    }
}
