package io.routegateway.core.select;

import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Session-affinity memory: affinity key → the (group, credential) that last served it
 * successfully. Entries expire {@code ttl} after they were last remembered; past {@code capacity}
 * (10,000 by default) the oldest entry — the one remembered longest ago — is evicted. Only {@link
 * #remember} (called on success) writes; a lookup never extends an entry's life.
 *
 * <p>Stateful, but all time is passed in. Thread-safe: one monitor guards an insertion-ordered
 * {@link LinkedHashMap}. Every operation is O(1) (a hash probe, at most a relink, plus an amortised
 * purge of expired entries at the head), so the lock is held for well under a microsecond; a single
 * lock is cheaper and simpler than a concurrent map with approximate eviction at the request rates
 * of one gateway replica. If profiling ever shows contention, stripe it by key hash.
 *
 * <p>The table does not judge eligibility: the router uses a remembered credential only when it is
 * eligible for the request (never cooling, blacklisted, paused or already tried).
 */
public final class AffinityTable {

    public static final int DEFAULT_CAPACITY = 10_000;
    /** Default entry lifetime; configurable per table (runtime settings). */
    public static final Duration DEFAULT_TTL = Duration.ofHours(1);

    /** Where an affinity key was last served successfully. */
    public record Target(String groupId, String credentialId, Instant rememberedAt) {}

    private final Duration ttl;
    private final int capacity;
    private final LinkedHashMap<AffinityKey, Target> entries = new LinkedHashMap<>();

    public AffinityTable() {
        this(DEFAULT_TTL, DEFAULT_CAPACITY);
    }

    public AffinityTable(Duration ttl, int capacity) {
        if (ttl == null || ttl.isNegative() || ttl.isZero()) {
            throw new IllegalArgumentException("ttl must be positive");
        }
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be at least 1");
        }
        this.ttl = ttl;
        this.capacity = capacity;
    }

    /** The remembered target, or empty when none or expired at {@code now} (expired entries are removed). */
    public Optional<Target> lookup(AffinityKey key, Instant now) {
        if (key == null) {
            return Optional.empty();
        }
        synchronized (entries) {
            Target target = entries.get(key);
            if (target == null) {
                return Optional.empty();
            }
            if (expired(target, now)) {
                entries.remove(key);
                return Optional.empty();
            }
            return Optional.of(target);
        }
    }

    /** Records a success: the key now prefers this credential, for {@code ttl} from {@code now}. */
    public void remember(AffinityKey key, String groupId, String credentialId, Instant now) {
        if (key == null || credentialId == null) {
            return;
        }
        Target target = new Target(groupId, credentialId, now);
        synchronized (entries) {
            entries.remove(key);
            entries.put(key, target);
            purgeExpiredHead(now);
            while (entries.size() > capacity) {
                Iterator<Map.Entry<AffinityKey, Target>> oldest =
                        entries.entrySet().iterator();
                oldest.next();
                oldest.remove();
            }
        }
    }

    public void forget(AffinityKey key) {
        synchronized (entries) {
            entries.remove(key);
        }
    }

    /** Entries currently held, expired ones not yet purged included. */
    public int size() {
        synchronized (entries) {
            return entries.size();
        }
    }

    public Duration ttl() {
        return ttl;
    }

    public int capacity() {
        return capacity;
    }

    private boolean expired(Target target, Instant now) {
        return !now.isBefore(target.rememberedAt().plus(ttl));
    }

    /** Entries are in remember order, so expired ones sit at the head; stop at the first live one. */
    private void purgeExpiredHead(Instant now) {
        Iterator<Map.Entry<AffinityKey, Target>> it = entries.entrySet().iterator();
        while (it.hasNext()) {
            if (!expired(it.next().getValue(), now)) {
                return;
            }
            it.remove();
        }
    }
}
