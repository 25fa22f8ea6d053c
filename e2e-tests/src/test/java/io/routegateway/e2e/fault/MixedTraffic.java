package io.routegateway.e2e.fault;

import java.util.List;
import java.util.Map;

import io.routegateway.demo.Behaviour;
import io.routegateway.demo.Behaviour.Mode;
import io.routegateway.e2e.support.OutcomeTap;
import io.routegateway.e2e.support.Pool;
import io.routegateway.e2e.support.RouteSystem;

/**
 * The pool the fault tests load: two accounts of one tier serving two models; the flaky one answers
 * 500 for one model and has its failure cooldown and error status off, so it keeps failing (and the
 * gateway keeps failing over) on every request that draws it. A healthy credential always exists, so clients must
 * never see an error.
 */
record MixedTraffic(Pool pool, String healthy, String flaky, String accessKey) {

    static final String SOL = "gpt-5.6-sol";
    static final String GLM = "glm-5.3";
    static final String UPSTREAM_SOL = "upstream-sol";
    static final String UPSTREAM_GLM = "upstream-glm";
    static final List<String> MODELS = List.of(SOL, GLM);

    static MixedTraffic create(RouteSystem system) {
        Pool pool = Pool.create(system);
        String healthy = pool.credential("well", c -> c.map(SOL, UPSTREAM_SOL).map(GLM, UPSTREAM_GLM));
        String flaky = pool.credential(
                "flaky",
                c -> c.withoutCooldown()
                        .withoutErrorStatus()
                        .retries(0)
                        .map(SOL, UPSTREAM_SOL)
                        .map(GLM, UPSTREAM_GLM));
        String key = pool.accessKey(pool.group("main", healthy, flaky));
        pool.awaitVisible(key);
        system.demo().setBehaviour(flaky, new Behaviour(Mode.STATUS, 500, UPSTREAM_SOL, 0, 0));
        return new MixedTraffic(pool, healthy, flaky, key);
    }

    List<String> credentials() {
        return pool.credentials();
    }

    /**
     * The flaky account's upstream-sol row counts every failure recorded for that model since its last
     * success, and it never succeeds there: the count equals the failure events produced for it. A
     * re-applied duplicate would show as a higher count.
     */
    static int failureCount(Map<String, Object> modelRow) {
        return ((Number) modelRow.get("transient_failure_count")).intValue();
    }

    /** The failure events produced for the flaky account's upstream-sol: what its row must count. */
    long flakyModelFailures(List<OutcomeTap.Outcome> produced) {
        return produced.stream()
                .filter(outcome -> outcome.credentialId().equals(flaky)
                        && UPSTREAM_SOL.equals(outcome.modelKey())
                        && outcome.type().startsWith("transient-failure-recorded"))
                .count();
    }
}
