package io.routegateway.core.limits;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.UUID;

import io.routegateway.core.event.LeaseEvent;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

import static io.routegateway.core.limits.LeaseFixtures.T0;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The ledger's counters against a brute-force model over random traffic: leases opened, renewed,
 * closed (with and without settled tokens and costs) or abandoned by a crashed holder, delivered
 * late, twice and out of order (each generated from one seed).
 */
class AdmissionLedgerProperties {

    static final String[] KEYS = {"k0", "k1", "k2"};
    static final String[] TEAMS = {"t0", "t1"};
    static final String[] CREDENTIALS = {"c0", "c1"};
    static final long WINDOW = 60_000;
    static final long RETENTION = 600_000;
    static final long TTL = 60_000;

    record Delivery(long arrival, LeaseEvent event) {}

    static Instant ms(long millis) {
        return T0.plusMillis(millis);
    }

    static long millis(Instant instant) {
        return instant.toEpochMilli() - T0.toEpochMilli();
    }

    /** A random lease's records, each delivered once or twice, late or a little early (clock skew). */
    static List<Delivery> traffic(SplittableRandom r) {
        List<Delivery> deliveries = new ArrayList<>();
        int leases = 1 + r.nextInt(60);
        for (int i = 0; i < leases; i++) {
            boolean request = r.nextInt(7) > 0;
            UUID id = new UUID(r.nextLong(), r.nextLong());
            String key = KEYS[r.nextInt(KEYS.length)];
            String team = r.nextInt(4) == 0 ? null : TEAMS[r.nextInt(TEAMS.length)];
            String credential = request ? null : CREDENTIALS[r.nextInt(CREDENTIALS.length)];
            LeaseEvent.Kind kind = request ? LeaseEvent.Kind.REQUEST : LeaseEvent.Kind.ATTEMPT;
            long reserved = request ? r.nextLong(5000) : 0;
            long openAt = r.nextLong(150_000);
            long end = openAt + r.nextLong(200_000);
            boolean crashed = r.nextInt(7) == 0;
            List<LeaseEvent> events = new ArrayList<>();
            events.add(new LeaseEvent(
                    id,
                    "o",
                    kind,
                    LeaseEvent.Phase.OPENED,
                    key,
                    team,
                    credential,
                    ms(openAt),
                    ms(openAt + TTL),
                    reserved,
                    null,
                    null));
            for (long renewal = openAt + 20_000; renewal < end; renewal += 20_000) {
                events.add(new LeaseEvent(
                        id,
                        "o",
                        kind,
                        LeaseEvent.Phase.RENEWED,
                        key,
                        team,
                        credential,
                        ms(renewal),
                        ms(renewal + TTL),
                        reserved,
                        null,
                        null));
            }
            if (!crashed) {
                Long settled = r.nextInt(5) == 0 ? null : r.nextLong(8000);
                Long cost = r.nextInt(5) == 0 ? null : r.nextLong(1_000_000);
                long closeReserved = r.nextInt(3) == 0 ? 0 : reserved;
                events.add(new LeaseEvent(
                        id,
                        "o",
                        kind,
                        LeaseEvent.Phase.CLOSED,
                        key,
                        team,
                        credential,
                        ms(end),
                        null,
                        closeReserved,
                        settled,
                        cost));
            }
            for (LeaseEvent event : events) {
                int copies = r.nextInt(5) == 0 ? 2 : 1;
                for (int copy = 0; copy < copies; copy++) {
                    long delay = r.nextInt(10) == 0 ? r.nextLong(30_000) : r.nextLong(3_500) - 500;
                    deliveries.add(new Delivery(millis(event.at()) + delay, event));
                }
            }
        }
        deliveries.sort(Comparator.comparingLong(Delivery::arrival));
        return deliveries;
    }

    /** What the delivered records say of one lease. */
    static final class Known {
        LeaseEvent first;
        Long openedAt;
        boolean alive;
        long maxExpires = Long.MIN_VALUE;
        long maxReserved;
        Long closedAt;
        Long settled;
        Long cost;

        boolean request() {
            return first.kind() == LeaseEvent.Kind.REQUEST;
        }

        boolean open(long now) {
            return alive && closedAt == null && maxExpires > now;
        }

        boolean of(SubjectKind kind, String id) {
            return switch (kind) {
                case KEY -> request() && id.equals(first.accessKeyId());
                case TEAM -> request() && id.equals(first.teamId());
                case CREDENTIAL -> !request() && id.equals(first.credentialId());
            };
        }
    }

    /** The brute-force model: every rule of the ledger's javadoc, recomputed from scratch. */
    static final class Model {
        final Map<UUID, Known> leases = new HashMap<>();
        final Set<LeaseEvent> seen = java.util.Collections.newSetFromMap(new IdentityHashMap<>());

        void deliver(LeaseEvent event) {
            if (!seen.add(event)) {
                return;
            }
            Known known = leases.computeIfAbsent(event.leaseId(), id -> new Known());
            if (known.first == null) {
                known.first = event;
            }
            known.maxReserved = Math.max(known.maxReserved, event.reservedTokens());
            if (event.expiresAt() != null) {
                known.maxExpires = Math.max(known.maxExpires, millis(event.expiresAt()));
            }
            switch (event.phase()) {
                case OPENED -> {
                    known.alive = true;
                    known.openedAt = millis(event.at());
                }
                case RENEWED -> known.alive = true;
                case CLOSED -> {
                    known.closedAt = millis(event.at());
                    known.settled = event.settledTokens();
                    known.cost = event.costMicros();
                }
            }
        }

        List<Known> of(SubjectKind kind, String id) {
            return leases.values().stream().filter(k -> k.of(kind, id)).toList();
        }

        long requests(SubjectKind kind, String id, long now) {
            return of(kind, id).stream()
                    .filter(k -> k.openedAt != null && k.openedAt > now - WINDOW)
                    .count();
        }

        long inFlight(SubjectKind kind, String id, long now) {
            return of(kind, id).stream().filter(k -> k.open(now)).count();
        }

        long openReserved(SubjectKind kind, String id, long now) {
            return of(kind, id).stream()
                    .filter(k -> k.open(now))
                    .mapToLong(k -> k.maxReserved)
                    .sum();
        }

        /** Settled entries in the window as [time, tokens], oldest first. */
        List<long[]> settled(SubjectKind kind, String id, long now) {
            return of(kind, id).stream()
                    .filter(k -> k.request() && k.closedAt != null && k.closedAt > now - WINDOW)
                    .map(k -> new long[] {k.closedAt, k.settled == null ? k.maxReserved : k.settled})
                    .sorted(Comparator.comparingLong(e -> e[0]))
                    .toList();
        }

        long tokens(SubjectKind kind, String id, long now) {
            return settled(kind, id, now).stream().mapToLong(e -> e[1]).sum() + openReserved(kind, id, now);
        }

        long costAfter(SubjectKind kind, String id, long after, long now) {
            long from = Math.max(after, now - RETENTION);
            return of(kind, id).stream()
                    .filter(k -> k.request() && k.closedAt != null && k.closedAt > from && k.cost != null && k.cost > 0)
                    .mapToLong(k -> k.cost)
                    .sum();
        }

        long requestLeavesAt(SubjectKind kind, String id, long now, int n) {
            List<Long> opens = of(kind, id).stream()
                    .filter(k -> k.openedAt != null && k.openedAt > now - WINDOW)
                    .map(k -> k.openedAt)
                    .sorted()
                    .toList();
            return n < opens.size() ? opens.get(n) + WINDOW : now;
        }

        long settledFallsTo(SubjectKind kind, String id, long now, long target) {
            List<long[]> entries = settled(kind, id, now);
            long sum = entries.stream().mapToLong(e -> e[1]).sum();
            long when = now;
            for (long[] entry : entries) {
                if (sum <= target) {
                    break;
                }
                sum -= entry[1];
                when = entry[0] + WINDOW;
            }
            return when;
        }

        Map<String, Long> teamsActive(long since, long now) {
            Map<String, Long> active = new HashMap<>();
            for (String team : TEAMS) {
                List<Known> leases = of(SubjectKind.TEAM, team);
                boolean opened = leases.stream().anyMatch(k -> k.openedAt != null && k.openedAt > since);
                long inFlight = inFlight(SubjectKind.TEAM, team, now);
                if (opened || inFlight > 0) {
                    active.put(team, inFlight);
                }
            }
            return active;
        }
    }

    static void check(AdmissionLedger ledger, Model model, long now, SplittableRandom r) {
        Instant at = ms(now);
        for (SubjectKind kind : SubjectKind.values()) {
            String[] ids = kind == SubjectKind.KEY ? KEYS : kind == SubjectKind.TEAM ? TEAMS : CREDENTIALS;
            for (String id : ids) {
                String what = kind + " " + id + " at " + now;
                assertThat(ledger.requests(kind, id, at))
                        .as("requests of " + what)
                        .isEqualTo(model.requests(kind, id, now));
                assertThat(ledger.inFlight(kind, id, at))
                        .as("in flight of " + what)
                        .isEqualTo(model.inFlight(kind, id, now));
                assertThat(ledger.tokens(kind, id, at)).as("tokens of " + what).isEqualTo(model.tokens(kind, id, now));
                assertThat(ledger.openReservations(kind, id, at))
                        .as("open reservations of " + what)
                        .isEqualTo(model.openReserved(kind, id, now));
                long after = now - r.nextLong(700_000);
                assertThat(ledger.closedCostAfter(kind, id, ms(after), at))
                        .as("costs after " + after + " of " + what)
                        .isEqualTo(model.costAfter(kind, id, after, now));
                int n = r.nextInt(6);
                assertThat(ledger.requestLeavesAtMillis(kind, id, at, n) - T0.toEpochMilli())
                        .as("request " + n + " leaves, " + what)
                        .isEqualTo(model.requestLeavesAt(kind, id, now, n));
                long target = r.nextLong(20_000);
                assertThat(ledger.settledTokensFallToAtMillis(kind, id, at, target) - T0.toEpochMilli())
                        .as("settled falls to " + target + ", " + what)
                        .isEqualTo(model.settledFallsTo(kind, id, now, target));
            }
        }
        assertThat(ledger.teamsActiveSince(ms(now - WINDOW), at)).isEqualTo(model.teamsActive(now - WINDOW, now));
    }

    @Property(tries = 200)
    void theCountersAreTheSumsOfWhatTheRecordsSay(@ForAll long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        AdmissionLedger ledger = new AdmissionLedger();
        Model model = new Model();
        long now = Long.MIN_VALUE;
        for (Delivery delivery : traffic(r)) {
            now = Math.max(now, delivery.arrival());
            ledger.apply(delivery.event(), ms(now));
            model.deliver(delivery.event());
            if (r.nextInt(6) == 0) {
                check(ledger, model, now, r);
            }
        }
        for (long later : new long[] {1, 10_000, 61_000, 200_000, 700_000}) {
            check(ledger, model, now + later, r);
        }
    }

    @Property(tries = 100)
    void theOrderOfDeliveryDoesNotMatterOnceEverythingHasArrived(@ForAll long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        List<Delivery> deliveries = traffic(r);
        long last = deliveries.stream().mapToLong(Delivery::arrival).max().orElse(0);
        AdmissionLedger inOrder = new AdmissionLedger();
        AdmissionLedger shuffled = new AdmissionLedger();
        List<LeaseEvent> events =
                new ArrayList<>(deliveries.stream().map(Delivery::event).toList());
        for (LeaseEvent event : events) {
            inOrder.apply(event, ms(last));
        }
        for (int i = events.size() - 1; i > 0; i--) {
            int j = r.nextInt(i + 1);
            LeaseEvent swap = events.get(i);
            events.set(i, events.get(j));
            events.set(j, swap);
        }
        shuffled.applyAll(events, ms(last));
        for (SubjectKind kind : SubjectKind.values()) {
            for (String id : List.of("k0", "k1", "k2", "t0", "t1", "c0", "c1")) {
                Instant at = ms(last);
                assertThat(shuffled.requests(kind, id, at)).isEqualTo(inOrder.requests(kind, id, at));
                assertThat(shuffled.inFlight(kind, id, at)).isEqualTo(inOrder.inFlight(kind, id, at));
                assertThat(shuffled.tokens(kind, id, at)).isEqualTo(inOrder.tokens(kind, id, at));
                assertThat(shuffled.closedCostAfter(kind, id, ms(last - RETENTION), at))
                        .isEqualTo(inOrder.closedCostAfter(kind, id, ms(last - RETENTION), at));
            }
        }
        assertThat(Objects.equals(
                        shuffled.teamsActiveSince(ms(last - WINDOW), ms(last)),
                        inOrder.teamsActiveSince(ms(last - WINDOW), ms(last))))
                .isTrue();
    }
}
