package io.routegateway.core.limits;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.routegateway.core.event.LeaseEvent;
import io.routegateway.core.event.SpendSnapshot;

/**
 * The cluster's admissions as one replica knows them: every {@link LeaseEvent} (its own, applied
 * when made, and its peers', read from the admissions topic) folded into counters per subject — an
 * AccessKey and a team for a REQUEST lease, a credential for an ATTEMPT lease — plus the newest
 * {@link SpendSnapshot} of every key and team with a budget. Pure: no I/O, no clock; every call
 * takes {@code now}.
 *
 * <p><b>Folding.</b> A lease is known by its id and each of its phases counts once, whatever the
 * order and however often records arrive:
 *
 * <ul>
 *   <li>its first OPENED counts one request at {@code at} (rpm);
 *   <li>it is open (one parallel slot, its {@code reserved_tokens} held against tpm) from its first
 *       OPENED or RENEWED until its CLOSED or its latest {@code expires_at}, whichever comes first
 *       (a RENEWED arriving after the lease expired, with a later {@code expires_at}, reopens it: its
 *       holder is alive; after a CLOSED nothing reopens it);
 *   <li>its first CLOSED counts, at {@code at}, the settled tokens (the reservation when they are
 *       unknown) for 60 s and the cost for the budgets; a CLOSED before the OPENED is kept, the
 *       OPENED then only adds its request;
 *   <li>the reservation is the largest any phase carried; an expired lease frees its slot and its
 *       reservation (its holder is gone; what the request used is unknown).
 * </ul>
 *
 * A lease is remembered for {@link #LEASE_MEMORY} after its last relevant instant (close or expiry)
 * so late duplicates are recognised; a record of an unknown lease older than that is ignored, as
 * counting it could count it twice. The holder should close a lease with {@code at} = its usage
 * record's {@code occurred_at}, so {@link #spendMicros} neither misses nor double counts a cost
 * against {@link SpendSnapshot#asOf()}.
 *
 * <p><b>Memory</b> is bounded by the traffic of the windows: opens and tokens older than 60 s,
 * costs older than {@link #COST_RETENTION}, leases past their memory and idle subjects are dropped,
 * amortised over the calls (each touched subject prunes its own entries, a sweep every 30 s of
 * {@code now} drops the rest).
 *
 * <p><b>Threads.</b> One lock guards the ledger; every operation under it is a hash look-up, a
 * binary search or an append on primitive arrays, well under a microsecond, so event-loop threads
 * barely wait. {@link #admit} decides and opens under the same lock, so two threads cannot both
 * take the last slot. {@code now} is expected to move forward (give or take the few microseconds
 * between threads): pruning and expiry done for a later {@code now} are not undone for an earlier
 * one.
 */
public final class AdmissionLedger implements LedgerView {

    /** The sliding window of rpm and tpm. */
    public static final Duration WINDOW = Duration.ofMillis(WINDOW_MILLIS);
    /** How long closed costs are kept for {@link #spendMicros} after a spend snapshot's {@code as_of}. */
    public static final Duration COST_RETENTION = Duration.ofMinutes(10);
    /** How long a lease is remembered after its close or expiry, to recognise duplicates. */
    public static final Duration LEASE_MEMORY = Duration.ofMinutes(3);

    static final long COST_RETENTION_MILLIS = COST_RETENTION.toMillis();
    static final long LEASE_MEMORY_MILLIS = LEASE_MEMORY.toMillis();
    static final long SWEEP_EVERY_MILLIS = 30_000L;
    private static final long NONE = Long.MIN_VALUE;

    private final Object lock = new Object();
    private final Map<String, Subject> keys = new HashMap<>();
    private final Map<String, Subject> teams = new HashMap<>();
    private final Map<String, Subject> credentials = new HashMap<>();
    private final Map<UUID, Lease> leases = new HashMap<>();
    private final Map<UUID, Lease> openLeases = new HashMap<>();
    private final ArrayDeque<Lease> retiring = new ArrayDeque<>();
    private long nextExpiryMillis = Long.MAX_VALUE;
    private long nextSweepMillis = NONE;

    /**
     * Folds one record. Returns true when it changed what the ledger counts, false for a duplicate,
     * a malformed record (no lease id, kind, phase or {@code at}) or one too old to matter.
     */
    public boolean apply(LeaseEvent event, Instant now) {
        synchronized (lock) {
            long at = now.toEpochMilli();
            advance(at);
            return applyLocked(event, at);
        }
    }

    /** Folds records in order under one lock (a batch read from the admissions topic). */
    public void applyAll(Iterable<LeaseEvent> events, Instant now) {
        synchronized (lock) {
            long at = now.toEpochMilli();
            advance(at);
            for (LeaseEvent event : events) {
                applyLocked(event, at);
            }
        }
    }

    /**
     * Keeps {@code snapshot} if it is newer (higher version) than the one held for its subject.
     * Returns false when it was not (or is not a key's or team's).
     */
    public boolean applySpend(SpendSnapshot snapshot) {
        if (snapshot == null || snapshot.subjectId() == null) {
            return false;
        }
        SubjectKind kind = SubjectKind.ofSpendSubject(snapshot.subject());
        if (kind == null) {
            return false;
        }
        synchronized (lock) {
            Subject subject = subject(kind, snapshot.subjectId(), true);
            if (subject.spend != null && subject.spend.version() >= snapshot.version()) {
                return false;
            }
            subject.spend = snapshot;
            return true;
        }
    }

    /** Forgets the spend snapshot of a deleted key or team (a tombstone on the spend topic). */
    public void removeSpend(SubjectKind kind, String id) {
        synchronized (lock) {
            Subject subject = subject(kind, id, false);
            if (subject != null) {
                subject.spend = null;
            }
        }
    }

    /**
     * Decides {@code request} by {@link Admission#decide} and, when it is admitted, applies {@code
     * opened} (the REQUEST lease's OPENED record the caller publishes) under the same lock, so
     * concurrent requests cannot overrun a limit between deciding and counting. An unlimited request
     * returns {@link AdmissionDecision#UNLIMITED} without touching the ledger or applying anything.
     */
    public AdmissionDecision admit(Instant now, AdmissionRequest request, LeaseEvent opened) {
        if (request.isUnlimited()) {
            return AdmissionDecision.UNLIMITED;
        }
        if (opened == null || opened.phase() != LeaseEvent.Phase.OPENED || opened.kind() != LeaseEvent.Kind.REQUEST) {
            throw new IllegalArgumentException("admit opens a REQUEST lease with its OPENED record");
        }
        synchronized (lock) {
            AdmissionDecision decision = Admission.decide(now, request, this);
            if (decision.admitted()) {
                applyLocked(opened, now.toEpochMilli());
            }
            return decision;
        }
    }

    /**
     * Applies {@code opened} (an ATTEMPT lease's OPENED record) unless its credential is full by
     * {@code limits} ({@link CredentialCapacity}), under one lock. Returns whether it was applied.
     */
    public boolean openAttempt(Instant now, CredentialLimits limits, LeaseEvent opened) {
        if (opened == null || opened.phase() != LeaseEvent.Phase.OPENED || opened.kind() != LeaseEvent.Kind.ATTEMPT) {
            throw new IllegalArgumentException("openAttempt opens an ATTEMPT lease with its OPENED record");
        }
        synchronized (lock) {
            if (CredentialCapacity.isFull(now, opened.credentialId(), limits, this)) {
                return false;
            }
            applyLocked(opened, now.toEpochMilli());
            return true;
        }
    }

    /**
     * The open leases held by {@code origin} that have run past a third of their term (from their
     * newest OPENED or RENEWED to {@code expires_at}): each one's newest OPENED/RENEWED record, for
     * {@link Leases#renewal}.
     */
    public List<LeaseEvent> leasesToRenew(Instant now, String origin) {
        synchronized (lock) {
            long at = now.toEpochMilli();
            advance(at);
            List<LeaseEvent> due = new ArrayList<>();
            for (Lease lease : openLeases.values()) {
                if (lease.latest == null || !origin.equals(lease.latest.origin())) {
                    continue;
                }
                long from = lease.latestAt;
                if (at - from >= (lease.expiresAt - from) / 3) {
                    due.add(lease.latest);
                }
            }
            return due;
        }
    }

    @Override
    public long requests(SubjectKind kind, String id, Instant now) {
        synchronized (lock) {
            long at = now.toEpochMilli();
            Subject subject = touched(kind, id, at);
            return subject == null ? 0 : subject.opens.countAfter(at - WINDOW_MILLIS);
        }
    }

    @Override
    public long inFlight(SubjectKind kind, String id, Instant now) {
        synchronized (lock) {
            Subject subject = touched(kind, id, now.toEpochMilli());
            return subject == null ? 0 : subject.inFlight;
        }
    }

    @Override
    public long tokens(SubjectKind kind, String id, Instant now) {
        synchronized (lock) {
            long at = now.toEpochMilli();
            Subject subject = touched(kind, id, at);
            return subject == null ? 0 : subject.tokens.sumAfter(at - WINDOW_MILLIS) + subject.openReserved;
        }
    }

    @Override
    public long openReservations(SubjectKind kind, String id, Instant now) {
        synchronized (lock) {
            Subject subject = touched(kind, id, now.toEpochMilli());
            return subject == null ? 0 : subject.openReserved;
        }
    }

    @Override
    public long requestLeavesAtMillis(SubjectKind kind, String id, Instant now, long n) {
        synchronized (lock) {
            long at = now.toEpochMilli();
            Subject subject = touched(kind, id, at);
            if (subject == null || n < 0 || n >= subject.opens.countAfter(at - WINDOW_MILLIS)) {
                return at;
            }
            return subject.opens.timeOfNthAfter(at - WINDOW_MILLIS, (int) n) + WINDOW_MILLIS;
        }
    }

    @Override
    public long settledTokensFallToAtMillis(SubjectKind kind, String id, Instant now, long target) {
        synchronized (lock) {
            long at = now.toEpochMilli();
            Subject subject = touched(kind, id, at);
            if (subject == null) {
                return at;
            }
            long leaving = subject.tokens.timeWhenSumAfterFallsTo(at - WINDOW_MILLIS, Math.max(0, target), NONE);
            return leaving == NONE ? at : leaving + WINDOW_MILLIS;
        }
    }

    @Override
    public long closedCostAfter(SubjectKind kind, String id, Instant after, Instant now) {
        synchronized (lock) {
            long at = now.toEpochMilli();
            Subject subject = touched(kind, id, at);
            return subject == null ? 0 : costAfter(subject, after.toEpochMilli(), at);
        }
    }

    @Override
    public long spendMicros(SubjectKind kind, String id, Instant windowStart, Instant windowEnd, Instant now) {
        synchronized (lock) {
            long at = now.toEpochMilli();
            Subject subject = touched(kind, id, at);
            if (subject == null) {
                return 0;
            }
            long after = windowStart.toEpochMilli() - 1;
            long settled = 0;
            SpendSnapshot snapshot = subject.spend;
            if (snapshot != null && isOfWindow(snapshot, windowEnd, now)) {
                settled = Math.max(0, snapshot.spendMicros());
                if (snapshot.asOf() != null) {
                    after = Math.max(after, snapshot.asOf().toEpochMilli());
                }
            }
            long closed = costAfter(subject, after, at);
            long spend = settled + closed;
            return spend < 0 ? Long.MAX_VALUE : spend;
        }
    }

    @Override
    public Map<String, Long> teamsActiveSince(Instant since, Instant now) {
        synchronized (lock) {
            advance(now.toEpochMilli());
            long from = since.toEpochMilli();
            Map<String, Long> active = new HashMap<>();
            for (Map.Entry<String, Subject> team : teams.entrySet()) {
                Subject subject = team.getValue();
                if (subject.inFlight > 0 || subject.lastOpenedAt > from) {
                    active.put(team.getKey(), subject.inFlight);
                }
            }
            return active;
        }
    }

    /** Leases remembered (open, or closed/expired within their memory); for tests of the bounds. */
    int leaseCount() {
        synchronized (lock) {
            return leases.size();
        }
    }

    /** Subjects held; for tests of the bounds. */
    int subjectCount() {
        synchronized (lock) {
            return keys.size() + teams.size() + credentials.size();
        }
    }

    /** Entries held in the subjects' series; for tests of the bounds. */
    int entryCount() {
        synchronized (lock) {
            int entries = 0;
            for (Map<String, Subject> map : List.of(keys, teams, credentials)) {
                for (Subject subject : map.values()) {
                    entries += subject.opens.size() + subject.tokens.size() + subject.costs.size();
                }
            }
            return entries;
        }
    }

    private static boolean isOfWindow(SpendSnapshot snapshot, Instant windowEnd, Instant now) {
        if (windowEnd == null) {
            return snapshot.windowEnd() == null;
        }
        return snapshot.windowEnd() != null
                && snapshot.windowStart() != null
                && !snapshot.windowStart().isAfter(now)
                && now.isBefore(snapshot.windowEnd());
    }

    private static long costAfter(Subject subject, long after, long now) {
        return subject.costs.sumAfter(Math.max(after, now - COST_RETENTION_MILLIS));
    }

    // ---- folding (under the lock) ----

    private boolean applyLocked(LeaseEvent event, long now) {
        if (event == null
                || event.leaseId() == null
                || event.kind() == null
                || event.phase() == null
                || event.at() == null) {
            return false;
        }
        long at = event.at().toEpochMilli();
        long expires = event.expiresAt() == null ? NONE : event.expiresAt().toEpochMilli();
        Lease lease = leases.get(event.leaseId());
        boolean changed = false;
        if (lease == null) {
            if (Math.max(at, expires) + LEASE_MEMORY_MILLIS <= now) {
                return false;
            }
            lease = new Lease(event);
            leases.put(lease.id, lease);
            changed = true;
        }
        if (event.reservedTokens() > lease.reserved) {
            raiseReservation(lease, event.reservedTokens(), now);
            changed = true;
        }
        if (expires > lease.expiresAt) {
            lease.expiresAt = expires;
            changed = true;
        }
        switch (event.phase()) {
            case OPENED -> {
                changed |= takeLatest(lease, event, at);
                if (lease.openedAt == NONE) {
                    lease.openedAt = at;
                    countOpened(lease, at, now);
                    changed = true;
                }
            }
            case RENEWED -> changed |= takeLatest(lease, event, at);
            case CLOSED -> {
                if (!lease.closed) {
                    close(lease, event, at, now);
                    changed = true;
                }
            }
        }
        if (!lease.open && !lease.closed && lease.latest != null && lease.expiresAt > now) {
            enterOpen(lease);
        }
        if (!lease.open) {
            retire(lease);
        }
        return changed;
    }

    private static boolean takeLatest(Lease lease, LeaseEvent event, long at) {
        if (lease.latest == null || at > lease.latestAt) {
            lease.latest = event;
            lease.latestAt = at;
            return true;
        }
        return false;
    }

    private void countOpened(Lease lease, long at, long now) {
        for (int i = 0; i < 2; i++) {
            Subject subject = subjectOf(lease, i);
            if (subject != null) {
                subject.lastOpenedAt = Math.max(subject.lastOpenedAt, at);
                if (at > now - WINDOW_MILLIS) {
                    subject.prune(now);
                    subject.opens.add(at, 1);
                }
            }
        }
    }

    private void raiseReservation(Lease lease, long reserved, long now) {
        long delta = reserved - lease.reserved;
        lease.reserved = reserved;
        for (int i = 0; i < 2; i++) {
            Subject subject = subjectOf(lease, i);
            if (subject == null) {
                continue;
            }
            if (lease.open) {
                subject.openReserved += delta;
            }
            if (lease.closed && lease.settled == null) {
                addTokens(lease, subject, delta, now);
            }
        }
    }

    private void close(Lease lease, LeaseEvent event, long at, long now) {
        if (lease.open) {
            leaveOpen(lease, now);
            openLeases.remove(lease.id);
        }
        lease.closed = true;
        lease.closedAt = at;
        lease.settled = event.settledTokens() == null ? null : Math.max(0, event.settledTokens());
        long tokens = lease.settled == null ? lease.reserved : lease.settled;
        Long cost = event.costMicros();
        for (int i = 0; i < 2; i++) {
            Subject subject = subjectOf(lease, i);
            if (subject == null) {
                continue;
            }
            addTokens(lease, subject, tokens, now);
            if (lease.request && cost != null && cost > 0 && at > now - COST_RETENTION_MILLIS) {
                subject.prune(now);
                subject.costs.add(at, cost);
            }
        }
    }

    private static void addTokens(Lease lease, Subject subject, long tokens, long now) {
        if (lease.request && tokens > 0 && lease.closedAt > now - WINDOW_MILLIS) {
            subject.prune(now);
            subject.tokens.add(lease.closedAt, tokens);
        }
    }

    private void enterOpen(Lease lease) {
        lease.open = true;
        openLeases.put(lease.id, lease);
        for (int i = 0; i < 2; i++) {
            Subject subject = subjectOf(lease, i);
            if (subject != null) {
                subject.inFlight++;
                subject.openReserved += lease.reserved;
            }
        }
        nextExpiryMillis = Math.min(nextExpiryMillis, lease.expiresAt);
    }

    /** Takes an open lease's slot and reservation back; the caller drops it from {@link #openLeases}. */
    private void leaveOpen(Lease lease, long now) {
        lease.open = false;
        for (int i = 0; i < 2; i++) {
            Subject subject = subjectOf(lease, i);
            if (subject != null) {
                subject.inFlight--;
                subject.openReserved -= lease.reserved;
            }
        }
    }

    private void retire(Lease lease) {
        long last = Math.max(lease.expiresAt, lease.closed ? lease.closedAt : lease.latestAt);
        last = Math.max(last, lease.openedAt);
        lease.retireAt = last + LEASE_MEMORY_MILLIS;
        if (!lease.retiring) {
            lease.retiring = true;
            retiring.addLast(lease);
        }
    }

    // ---- amortised upkeep ----

    /** Expires leases, forgets retired ones and sweeps idle subjects as {@code now} moves on. */
    private void advance(long now) {
        if (now >= nextExpiryMillis) {
            long next = Long.MAX_VALUE;
            Iterator<Lease> open = openLeases.values().iterator();
            while (open.hasNext()) {
                Lease lease = open.next();
                if (lease.expiresAt <= now) {
                    open.remove();
                    leaveOpen(lease, now);
                    retire(lease);
                } else {
                    next = Math.min(next, lease.expiresAt);
                }
            }
            nextExpiryMillis = next;
        }
        while (!retiring.isEmpty()) {
            Lease lease = retiring.peekFirst();
            if (lease.open) {
                lease.retiring = false;
                retiring.pollFirst();
            } else if (lease.retireAt <= now) {
                lease.retiring = false;
                retiring.pollFirst();
                leases.remove(lease.id, lease);
            } else {
                break;
            }
        }
        if (now >= nextSweepMillis) {
            nextSweepMillis = now + SWEEP_EVERY_MILLIS;
            sweep(keys, now);
            sweep(teams, now);
            sweep(credentials, now);
        }
    }

    private static void sweep(Map<String, Subject> subjects, long now) {
        Iterator<Subject> all = subjects.values().iterator();
        while (all.hasNext()) {
            Subject subject = all.next();
            subject.prune(now);
            if (subject.isIdle(now)) {
                all.remove();
            }
        }
    }

    private Subject touched(SubjectKind kind, String id, long now) {
        advance(now);
        Subject subject = subject(kind, id, false);
        if (subject != null) {
            subject.prune(now);
        }
        return subject;
    }

    private Subject subjectOf(Lease lease, int index) {
        if (lease.request) {
            return index == 0
                    ? subject(SubjectKind.KEY, lease.keyId, true)
                    : subject(SubjectKind.TEAM, lease.teamId, true);
        }
        return index == 0 ? subject(SubjectKind.CREDENTIAL, lease.credentialId, true) : null;
    }

    private Subject subject(SubjectKind kind, String id, boolean create) {
        if (id == null || kind == null) {
            return null;
        }
        Map<String, Subject> map = switch (kind) {
            case KEY -> keys;
            case TEAM -> teams;
            case CREDENTIAL -> credentials;
        };
        Subject subject = map.get(id);
        if (subject == null && create) {
            subject = new Subject();
            map.put(id, subject);
        }
        return subject;
    }

    /** The counters of one key, team or credential. */
    private static final class Subject {
        final TimeSeries opens = new TimeSeries();
        final TimeSeries tokens = new TimeSeries();
        final TimeSeries costs = new TimeSeries();
        long inFlight;
        long openReserved;
        long lastOpenedAt = NONE;
        SpendSnapshot spend;

        void prune(long now) {
            opens.pruneThrough(now - WINDOW_MILLIS);
            tokens.pruneThrough(now - WINDOW_MILLIS);
            costs.pruneThrough(now - COST_RETENTION_MILLIS);
        }

        boolean isIdle(long now) {
            return inFlight == 0
                    && spend == null
                    && opens.isEmpty()
                    && tokens.isEmpty()
                    && costs.isEmpty()
                    && lastOpenedAt <= now - WINDOW_MILLIS;
        }
    }

    /** What is known of one lease, from whichever of its records arrived. */
    private static final class Lease {
        final UUID id;
        final boolean request;
        final String keyId;
        final String teamId;
        final String credentialId;
        /** The newest OPENED or RENEWED record, and its {@code at}. */
        LeaseEvent latest;

        long latestAt = NONE;
        long openedAt = NONE;
        long expiresAt = NONE;
        long reserved;
        boolean open;
        boolean closed;
        long closedAt = NONE;
        Long settled;
        long retireAt;
        boolean retiring;

        Lease(LeaseEvent first) {
            id = first.leaseId();
            request = first.kind() == LeaseEvent.Kind.REQUEST;
            keyId = first.accessKeyId();
            teamId = first.teamId();
            credentialId = first.credentialId();
        }
    }
}
