package io.routegateway.core.scenario;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.UUID;

import io.routegateway.core.event.AccessKeySnapshot;
import io.routegateway.core.event.CredentialEvent;
import io.routegateway.core.event.CredentialSnapshot;
import io.routegateway.core.event.GroupSnapshot;
import io.routegateway.core.model.CredentialKind;
import io.routegateway.core.model.ModelMapping;
import io.routegateway.core.model.Platform;
import io.routegateway.core.model.Protocol;
import io.routegateway.core.model.WeightMode;
import io.routegateway.core.policy.FailurePolicy;
import io.routegateway.core.select.PoolView;
import io.routegateway.core.select.RouteRequest;
import io.routegateway.core.select.RouteResult;
import io.routegateway.core.select.Router;
import io.routegateway.core.state.AccountState;
import io.routegateway.core.state.CredentialHealth;
import io.routegateway.core.state.CredentialProfile;
import io.routegateway.core.state.ModelState;
import io.routegateway.core.state.StateTransition;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The spec's "full timeline of one outage" and "upstream down wholesale", run as pure code: the
 * real Router picks, a scripted upstream answers, the real StateTransition records, and the view is
 * rebuilt from the resulting snapshots — exactly the loop a gateway runs, minus I/O.
 */
class OutageTimelineTests {

    static final Instant T0 = Instant.parse("2026-09-02T10:00:00Z");
    static final FailurePolicy COOLDOWN_10S = new FailurePolicy(2, 200, 10, true, 10, true);
    static final List<ModelMapping> MAPPINGS =
            List.of(new ModelMapping("gpt-5.6-sol", "upstream-sol"), new ModelMapping("glm-5.3", "upstream-glm"));

    final Map<String, CredentialHealth> health = new HashMap<>();
    final Map<String, Integer> priorities = Map.of("primary", 0, "backup", 1);
    /** (credential, upstream model) pairs the scripted upstream answers with a status. */
    final Map<String, Integer> failing = new HashMap<>();

    final List<String> upstreamCalls = new ArrayList<>();
    final SplittableRandom rng = new SplittableRandom(7);
    AccessKeySnapshot key;
    GroupSnapshot group;
    long version;

    @BeforeEach
    void pool() {
        health.put("primary", CredentialHealth.HEALTHY);
        health.put("backup", CredentialHealth.HEALTHY);
        key = new AccessKeySnapshot(
                "key-a", 1, "team a", "hash", "rk-a", true, null, List.of(), List.of(), List.of("default"), T0);
        group = new GroupSnapshot("default", 1, "default", true, WeightMode.AUTO, 0, List.of(), false, T0);
    }

    @Test
    void fullTimelineOfOneOutage() {
        failing.put("primary|upstream-sol", 429);

        // T+0: 429 on the primary for sol -> retries exhausted -> one model-scoped failure; the backup answers
        assertThat(serve("gpt-5.6-sol", 0)).isEqualTo("backup");
        assertThat(callsTo("primary", "upstream-sol")).isEqualTo(3); // first try + retry_count 2
        ModelState sol = health.get("primary").models().get("upstream-sol");
        assertThat(sol.cooldownUntil()).isEqualTo(T0.plusSeconds(10));
        AccountState account = health.get("primary").account();
        assertThat(account.transientFailureCount()).isEqualTo(1);
        assertThat(account.cooldownUntil()).isNull();
        assertThat(account.nextRetryAt()).isNull();
        assertThat(health.get("primary").unavailableModelCount(T0)).isEqualTo(1);

        // T+2: glm on the primary succeeds; account traces cleared, sol's cooldown untouched
        assertThat(serve("glm-5.3", 2)).isEqualTo("primary");
        assertThat(health.get("primary").account()).isEqualTo(AccountState.HEALTHY);
        assertThat(health.get("primary").models().get("upstream-sol")).isEqualTo(sol);

        // T+5: sol is still cooling on the primary: it is not even tried
        upstreamCalls.clear();
        assertThat(serve("gpt-5.6-sol", 5)).isEqualTo("backup");
        assertThat(callsTo("primary", "upstream-sol")).isZero();

        // T+10: the cooldown expired; 429 again -> failure #2, cooling until T+20
        assertThat(serve("gpt-5.6-sol", 10)).isEqualTo("backup");
        ModelState again = health.get("primary").models().get("upstream-sol");
        assertThat(again.transientFailureCount()).isEqualTo(2);
        assertThat(again.cooldownUntil()).isEqualTo(T0.plusSeconds(20));
        assertThat(again.semanticFailureStreakCount()).isEqualTo(2);

        // T+20: the upstream recovered; the primary serves sol, the row is deleted, the account zeroed
        failing.clear();
        assertThat(serve("gpt-5.6-sol", 20)).isEqualTo("primary");
        assertThat(health.get("primary").models()).isEmpty();
        assertThat(health.get("primary").account()).isEqualTo(AccountState.HEALTHY);
    }

    @Test
    void upstreamDownWholesaleEscalatesAfterEachModelFailedOnce() {
        failing.put("primary|upstream-sol", 503);
        failing.put("primary|upstream-glm", 503);

        assertThat(serve("gpt-5.6-sol", 0)).isEqualTo("backup");
        assertThat(health.get("primary").account().cooldownUntil()).isNull();

        assertThat(serve("glm-5.3", 1)).isEqualTo("backup");
        AccountState escalated = health.get("primary").account();
        assertThat(escalated.cooldownUntil()).isEqualTo(T0.plusSeconds(11));
        assertThat(escalated.nextRetryAt()).isEqualTo(T0.plusSeconds(11));

        // the whole account backs off: neither model is re-probed before the window ends
        upstreamCalls.clear();
        assertThat(serve("gpt-5.6-sol", 3)).isEqualTo("backup");
        assertThat(serve("glm-5.3", 4)).isEqualTo("backup");
        assertThat(upstreamCalls).noneMatch(call -> call.startsWith("primary|"));
    }

    @Test
    void whenEveryCredentialIsCoolingTheSoonestRecoveringOneIsStillTried() {
        failing.put("primary|upstream-sol", 429);
        failing.put("backup|upstream-sol", 429);
        assertThat(serve("gpt-5.6-sol", 0)).isNull(); // both fail: the client gets the pool's error
        failing.clear();
        // T+5: both are cooling (primary until T+10, backup until T+10): the fallback probes one anyway
        assertThat(serve("gpt-5.6-sol", 5)).isNotNull();
    }

    /** One client request through the gateway loop; returns the credential that answered, or null. */
    String serve(String model, int second) {
        Instant now = T0.plusSeconds(second);
        Set<String> tried = new HashSet<>();
        while (true) {
            RouteResult result = Router.route(
                    view(), RouteRequest.of(key, Protocol.OPENAI_CHAT, model, null), tried, null, rng, now, false);
            if (result instanceof RouteResult.Refused) {
                return null;
            }
            RouteResult.Selected selected = (RouteResult.Selected) result;
            String credential = selected.credential().credentialId();
            Integer status = null;
            // first try plus retry_count same-credential retries; a failure is recorded only when exhausted
            for (int attempt = 0; attempt <= COOLDOWN_10S.retryCount(); attempt++) {
                upstreamCalls.add(credential + "|" + selected.modelKey());
                status = failing.get(credential + "|" + selected.modelKey());
                if (status == null) {
                    break;
                }
            }
            if (status == null) {
                record(
                        credential,
                        new CredentialEvent.AttemptSucceeded(UUID.randomUUID(), credential, now, selected.modelKey()));
                return credential;
            }
            record(
                    credential,
                    new CredentialEvent.TransientFailureRecorded(
                            UUID.randomUUID(),
                            credential,
                            now,
                            selected.modelKey(),
                            "upstream_status",
                            status,
                            "upstream returned " + status,
                            "{\"error\":{}}"));
            tried.add(credential);
        }
    }

    long callsTo(String credential, String modelKey) {
        return upstreamCalls.stream()
                .filter(call -> call.equals(credential + "|" + modelKey))
                .count();
    }

    void record(String credential, CredentialEvent event) {
        CredentialProfile profile =
                new CredentialProfile(Platform.OPENAI, CredentialKind.API, MAPPINGS, COOLDOWN_10S, 0);
        health.put(
                credential,
                StateTransition.apply(profile, health.get(credential), event).next());
    }

    PoolView view() {
        List<CredentialSnapshot> credentials = new ArrayList<>();
        for (String id : List.of("primary", "backup")) {
            CredentialHealth state = health.get(id);
            credentials.add(new CredentialSnapshot(
                    id,
                    ++version,
                    id,
                    Platform.OPENAI,
                    CredentialKind.API,
                    "https://" + id + ".example",
                    "sealed",
                    MAPPINGS,
                    COOLDOWN_10S,
                    true,
                    false,
                    true,
                    priorities.get(id),
                    WeightMode.MANUAL,
                    50,
                    null,
                    List.of("default"),
                    state.account(),
                    List.copyOf(state.models().values()),
                    T0,
                    null,
                    null,
                    null));
        }
        return PoolView.of(credentials, List.of(group), List.of(key));
    }
}
