package io.routegateway.core.select;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import io.routegateway.core.event.AccessKeySnapshot;
import io.routegateway.core.event.CredentialSnapshot;
import io.routegateway.core.model.Protocol;
import io.routegateway.core.testing.CredentialBuilder;
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
 * {@link Router#route} over one group of 1,000 credentials × 5 models: three priority tiers, about
 * 10% of accounts cooling, 4% of (credential, model) pairs paused, 1% errored, 5% model-cooling,
 * every tenth credential manually weighted, auto weights from recent stats. Requests cycle over the
 * five models. Budget: ≤ 5 µs per request.
 *
 * <p>Run (from the repository root):
 *
 * <pre>
 * mvn -q -o -pl route-core test-compile dependency:build-classpath \
 *     -Dmdep.outputFile=target/bench-cp.txt -Dmdep.includeScope=test
 * java -cp route-core/target/test-classes:route-core/target/classes:$(cat route-core/target/bench-cp.txt) \
 *     io.routegateway.core.select.SelectionBenchmark
 * </pre>
 *
 * <p>Without arguments {@link #main} runs this class with 3 warmup and 5 measurement iterations of
 * 1 s in 1 fork; any arguments are passed to JMH unchanged (e.g. {@code -wi 5 -i 10 -f 2}).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class SelectionBenchmark {

    static final int CREDENTIALS = 1_000;
    static final String[] MODELS = {"gpt-5.6-sol", "glm-5.3", "claude-sonnet-4-5", "gemini-2.5-pro", "grok-4"};
    static final Instant NOW = Fixtures.NOW;

    PoolView view;
    RouteRequest[] requests;
    RouteRequest[] affinityRequests;
    AffinityTable affinity;
    Set<String> twoTried;

    @Setup
    public void setUp() {
        SplittableRandom r = new SplittableRandom(2026);
        List<CredentialSnapshot> credentials = new ArrayList<>(CREDENTIALS);
        Map<String, CredentialStats> stats = new HashMap<>();
        for (int i = 0; i < CREDENTIALS; i++) {
            String id = String.format("cred-%04d", i);
            CredentialBuilder c = Fixtures.cred(id).priority(i % 3);
            for (String model : MODELS) {
                c.maps(model, "up-" + model);
            }
            if (i % 10 == 0) {
                c.manualWeight(1 + r.nextInt(100));
            }
            if (r.nextInt(10) == 0) {
                c.accountCooling(NOW.plusSeconds(1 + r.nextInt(60)));
            }
            for (String model : MODELS) {
                int roll = r.nextInt(100);
                if (roll < 4) {
                    c.paused("up-" + model);
                } else if (roll < 5) {
                    c.errored("up-" + model);
                } else if (roll < 10) {
                    c.modelCooling("up-" + model, NOW.plusSeconds(1 + r.nextInt(60)));
                }
            }
            credentials.add(c.build());
            stats.put(id, new CredentialStats(r.nextInt(100), r.nextInt(10)));
        }
        AccessKeySnapshot key = Fixtures.key("bench").build();
        view = PoolView.of(credentials, List.of(Fixtures.group("g1").affinity().build()), List.of(key))
                .withStats(stats);
        requests = new RouteRequest[MODELS.length];
        affinityRequests = new RouteRequest[MODELS.length];
        affinity = new AffinityTable();
        for (int m = 0; m < MODELS.length; m++) {
            requests[m] = new RouteRequest(key, Protocol.OPENAI_CHAT, MODELS[m], null);
            AffinityKey affinityKey = Affinity.key("bench", Protocol.OPENAI_CHAT, "system prompt " + m);
            affinityRequests[m] = new RouteRequest(key, Protocol.OPENAI_CHAT, MODELS[m], affinityKey);
            RouteResult first = Router.route(view, affinityRequests[m], Set.of(), affinity, r, NOW, false);
            Router.rememberSuccess(affinity, affinityRequests[m], (RouteResult.Selected) first, NOW);
        }
        twoTried = Set.of("cred-0003", "cred-0006");
    }

    @State(Scope.Thread)
    public static class PerThread {
        final SplittableRandom rng = new SplittableRandom(7);
        int next;

        int nextModel() {
            int m = next;
            next = m + 1 == MODELS.length ? 0 : m + 1;
            return m;
        }
    }

    @Benchmark
    public RouteResult route(PerThread t) {
        return Router.route(view, requests[t.nextModel()], Set.of(), null, t.rng, NOW, false);
    }

    @Benchmark
    public RouteResult routeWithAffinityHit(PerThread t) {
        return Router.route(view, affinityRequests[t.nextModel()], Set.of(), affinity, t.rng, NOW, false);
    }

    @Benchmark
    public RouteResult routeRetryAfterTwoFailures(PerThread t) {
        return Router.route(view, requests[t.nextModel()], twoTried, null, t.rng, NOW, false);
    }

    @Benchmark
    public RouteResult routeWithTrace(PerThread t) {
        return Router.route(view, requests[t.nextModel()], Set.of(), null, t.rng, NOW, true);
    }

    public static void main(String[] args) throws Exception {
        String[] jmhArgs = args.length > 0
                ? args
                : new String[] {
                    SelectionBenchmark.class.getName(), "-wi", "3", "-i", "5", "-w", "1s", "-r", "1s", "-f", "1"
                };
        org.openjdk.jmh.Main.main(jmhArgs);
    }
}
