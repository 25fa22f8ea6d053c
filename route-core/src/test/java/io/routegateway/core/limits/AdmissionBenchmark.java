package io.routegateway.core.limits;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import io.routegateway.core.event.LeaseEvent;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The admission decision on the request path, as the gateway's {@code LeaseLedger.admit} makes it:
 * a new lease id, {@link AdmissionLedger#admit} (route-core's {@link Admission#decide} under the
 * ledger's lock, then the OPENED record applied) and, for the request that ends, its close applied.
 * Against a ledger in a steady state of {@value #KEYS} keys in {@value #TEAMS} teams, about
 * {@value #REQUESTS_PER_SECOND} requests per second (so ~20,000 leases in the minute's window, each
 * closed with tokens and a cost) and {@value #IN_FLIGHT} in flight; the clock moves 1/{@value
 * #REQUESTS_PER_SECOND} s per request.
 *
 * <ul>
 *   <li>{@code limitsOff}: a key without limits and without a team: the constant answer, no lease id
 *       and no ledger, as the gateway's {@code AdmissionStage} gives it.
 *   <li>{@code keyAndTeamLimits}: the key's rpm, tpm, parallel requests and a monthly budget, its
 *       team's rpm, tpm and parallel requests; an unbounded pool (no fair share).
 *   <li>{@code keyTeamLimitsAndFairShare}: the same on a bounded pool (K = 64, 60 in flight), so fair
 *       share counts the active teams on every request.
 * </ul>
 *
 * <p>Run: {@code bench/jmh.sh io.routegateway.core.limits.AdmissionBenchmark} (3 warmup + 5
 * measurement iterations of 1 s, 1 fork, unless other JMH arguments are given), or its {@link
 * #main} with {@code --cpu-time} for the thread's CPU time per request (see {@link #cpuTimes}).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class AdmissionBenchmark {

    static final int KEYS = 200;
    static final int TEAMS = 20;
    static final int REQUESTS_PER_SECOND = 333;
    static final int IN_FLIGHT = 200;
    static final Duration TTL = Duration.ofSeconds(60);
    static final Instant START = Instant.parse("2026-03-10T12:00:00Z");

    AdmissionLedger ledger;
    SplittableRandom random;
    /** The open leases, oldest first around the ring: each request closes the one it replaces. */
    LeaseEvent[] open;

    int slot;
    long nowMicros;
    String[] keyIds;
    String[] teamIds;
    AdmissionRequest[] off;
    AdmissionRequest[] limited;
    AdmissionRequest[] fairShared;
    int next;

    @Setup
    public void setUp() {
        ledger = new AdmissionLedger();
        random = new SplittableRandom(2026);
        open = new LeaseEvent[IN_FLIGHT];
        keyIds = new String[KEYS];
        teamIds = new String[TEAMS];
        for (int t = 0; t < TEAMS; t++) {
            teamIds[t] = String.format("team-%02d", t);
        }
        off = new AdmissionRequest[KEYS];
        limited = new AdmissionRequest[KEYS];
        fairShared = new AdmissionRequest[KEYS];
        Limits keyLimits = new Limits(100_000, 1_000_000_000L, 1_000, new BigDecimal("100000"), BudgetDuration.MONTH);
        Limits teamLimits = new Limits(1_000_000, 10_000_000_000L, 10_000, null, null);
        PoolLoad unbounded = new PoolLoad(0, 0, team -> 1);
        PoolLoad bounded = new PoolLoad(64, 60, team -> 1 + (team.hashCode() & 3));
        for (int k = 0; k < KEYS; k++) {
            keyIds[k] = String.format("key-%03d", k);
            String team = teamIds[k % TEAMS];
            off[k] = new AdmissionRequest(keyIds[k], null, null, null, 1, 1_200, null, ZoneOffset.UTC);
            limited[k] =
                    new AdmissionRequest(keyIds[k], keyLimits, team, teamLimits, 1, 1_200, unbounded, ZoneOffset.UTC);
            fairShared[k] =
                    new AdmissionRequest(keyIds[k], keyLimits, team, teamLimits, 1, 1_200, bounded, ZoneOffset.UTC);
        }
        nowMicros = START.toEpochMilli() * 1000;
        // two minutes of traffic: the window full, the older half aged out
        for (int i = 0; i < 120 * REQUESTS_PER_SECOND; i++) {
            cycle(limited);
        }
    }

    private AdmissionDecision cycle(AdmissionRequest[] requests) {
        nowMicros += 1_000_000 / REQUESTS_PER_SECOND;
        Instant now = Instant.ofEpochSecond(nowMicros / 1_000_000, (nowMicros % 1_000_000) * 1000);
        AdmissionRequest request = requests[next];
        next = (next + 1) % KEYS;
        if (request.isUnlimited()) {
            // as the gateway's AdmissionStage: no lease id, no ledger
            return AdmissionDecision.UNLIMITED;
        }
        LeaseEvent opened = Leases.openRequest(
                UUID.randomUUID(),
                "replica-a",
                request.accessKeyId(),
                request.teamId(),
                now,
                TTL,
                request.reservedTokens());
        AdmissionDecision decision = ledger.admit(now, request, opened);
        if (!decision.admitted() || decision.isUnlimited()) {
            return decision;
        }
        LeaseEvent ending = open[slot];
        open[slot] = opened;
        slot = (slot + 1) % IN_FLIGHT;
        if (ending != null) {
            ledger.apply(Leases.close(ending, now, 400L + random.nextInt(1_600), 1_000L + random.nextInt(9_000)), now);
        }
        return decision;
    }

    @Benchmark
    public AdmissionDecision limitsOff() {
        return cycle(off);
    }

    @Benchmark
    public AdmissionDecision keyAndTeamLimits() {
        return cycle(limited);
    }

    @Benchmark
    public AdmissionDecision keyTeamLimitsAndFairShare() {
        return cycle(fairShared);
    }

    /**
     * {@code --cpu-time [ROUNDS]}: instead of JMH, the thread's own CPU time per request of each case
     * (ThreadMXBean), ROUNDS rounds of 2,000,000 requests, the cases interleaved after a warm-up of
     * each. On a shared machine JMH's wall-clock times include the time the thread waited for a core;
     * CPU time does not (cache and frequency effects of the neighbours remain).
     */
    static void cpuTimes(int rounds) {
        java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
        String[] names = {"limitsOff", "keyAndTeamLimits", "keyTeamLimitsAndFairShare"};
        AdmissionBenchmark bench = new AdmissionBenchmark();
        bench.setUp();
        AdmissionRequest[][] cases = {bench.off, bench.limited, bench.fairShared};
        int perRound = 2_000_000;
        long sink = 0;
        for (AdmissionRequest[] requests : cases) {
            for (int i = 0; i < perRound; i++) {
                sink += bench.cycle(requests).admitted() ? 1 : 0;
            }
        }
        for (int round = 1; round <= rounds; round++) {
            StringBuilder line = new StringBuilder("round " + round + ":");
            for (int c = 0; c < cases.length; c++) {
                long before = threads.getCurrentThreadCpuTime();
                for (int i = 0; i < perRound; i++) {
                    sink += bench.cycle(cases[c]).admitted() ? 1 : 0;
                }
                double nanos = (threads.getCurrentThreadCpuTime() - before) / (double) perRound;
                line.append(String.format(" %s %.0f ns/op CPU;", names[c], nanos));
            }
            System.out.println(line);
        }
        System.out.println("(admitted " + sink + ")");
    }

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("--cpu-time")) {
            cpuTimes(args.length > 1 ? Integer.parseInt(args[1]) : 5);
            return;
        }
        String[] jmhArgs = args.length > 0
                ? args
                : new String[] {
                    AdmissionBenchmark.class.getName(), "-wi", "3", "-i", "5", "-w", "1s", "-r", "1s", "-f", "1"
                };
        org.openjdk.jmh.Main.main(jmhArgs);
    }
}
