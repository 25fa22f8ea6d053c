package io.routegateway.core.scenario;

import java.time.Instant;
import java.util.HashMap;
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
import io.routegateway.core.model.ModelKeys;
import io.routegateway.core.model.ModelMapping;
import io.routegateway.core.model.Platform;
import io.routegateway.core.model.Protocol;
import io.routegateway.core.model.WeightMode;
import io.routegateway.core.policy.FailurePolicy;
import io.routegateway.core.select.PoolView;
import io.routegateway.core.select.RouteRequest;
import io.routegateway.core.select.RouteResult;
import io.routegateway.core.select.Router;
import io.routegateway.core.state.CredentialHealth;
import io.routegateway.core.state.CredentialProfile;
import io.routegateway.core.state.StateTransition;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * "Under a catch-all mapping every client-side name funnels into one key, so a single failure parks
 * it for all of them and stray model names cannot inflate the table": the real Router and
 * StateTransition, one primary with {@code glm → upstream-glm} and {@code * → upstream-any}, one
 * pass-through backup.
 */
class CatchAllFunnelTests {

    static final Instant T0 = Instant.parse("2026-09-02T10:00:00Z");
    static final FailurePolicy COOLDOWN_10S = new FailurePolicy(0, 0, 1000, true, 10, true);
    static final List<ModelMapping> PRIMARY =
            List.of(new ModelMapping("glm", "upstream-glm"), new ModelMapping("*", "upstream-any"));
    static final List<ModelMapping> BACKUP = List.of(new ModelMapping("*", "*"));

    final Map<String, CredentialHealth> health =
            new HashMap<>(Map.of("primary", CredentialHealth.HEALTHY, "backup", CredentialHealth.HEALTHY));
    final AccessKeySnapshot key = new AccessKeySnapshot(
            "key-a", 1, "team a", "hash", "rk-a", true, null, List.of(), List.of(), List.of("default"), T0);
    final GroupSnapshot group =
            new GroupSnapshot("default", 1, "default", true, WeightMode.AUTO, 0, List.of(), false, T0);
    long version;

    @Test
    void everyClientNameFunnelsIntoTheCatchAllsKey() {
        for (String name : List.of("gpt-5.6-sol", "claude-x", "stray-name-42", "claude-x[1m]")) {
            assertThat(ModelKeys.modelKey(CredentialKind.API, PRIMARY, name)).contains("upstream-any");
        }
        assertThat(ModelKeys.modelKey(CredentialKind.API, PRIMARY, "glm")).contains("upstream-glm");
    }

    @Test
    void oneFailureParksTheKeyForEveryClientNameButNotTheAccountsOtherModel() {
        RouteResult.Selected first = route("claude-x", T0);
        assertThat(first.credential().credentialId()).isEqualTo("primary");
        fail("primary", first.modelKey(), T0);

        assertThat(health.get("primary").models()).containsOnlyKeys("upstream-any");
        for (String otherName : List.of("gpt-5.6-sol", "stray-name-42")) {
            assertThat(route(otherName, T0.plusSeconds(1)).credential().credentialId())
                    .as("%s is parked by the failure of claude-x", otherName)
                    .isEqualTo("backup");
        }
        assertThat(route("glm", T0.plusSeconds(1)).credential().credentialId())
                .as("the account's explicitly mapped model is not behind the catch-all")
                .isEqualTo("primary");
    }

    @Test
    void strayModelNamesCannotInflateTheTable() {
        for (int i = 0; i < 30; i++) {
            Instant at = T0.plusSeconds(11L * i); // each after the previous cooldown expired
            RouteResult.Selected selected = route("stray-" + i, at);
            assertThat(selected.credential().credentialId()).isEqualTo("primary");
            fail("primary", selected.modelKey(), at);
        }
        assertThat(health.get("primary").models()).containsOnlyKeys("upstream-any");
    }

    RouteResult.Selected route(String model, Instant now) {
        RouteResult result = Router.route(
                view(),
                RouteRequest.of(key, Protocol.OPENAI_CHAT, model, null),
                Set.of(),
                null,
                new SplittableRandom(7),
                now,
                false);
        assertThat(result).isInstanceOf(RouteResult.Selected.class);
        return (RouteResult.Selected) result;
    }

    void fail(String credential, String modelKey, Instant at) {
        CredentialProfile profile =
                new CredentialProfile(Platform.OPENAI, CredentialKind.API, PRIMARY, COOLDOWN_10S, 0);
        CredentialEvent failure = new CredentialEvent.TransientFailureRecorded(
                UUID.randomUUID(), credential, at, modelKey, "upstream_status", 429, "upstream returned 429", null);
        health.put(
                credential,
                StateTransition.apply(profile, health.get(credential), failure).next());
    }

    PoolView view() {
        return PoolView.of(
                List.of(snapshot("primary", PRIMARY, 0), snapshot("backup", BACKUP, 1)), List.of(group), List.of(key));
    }

    CredentialSnapshot snapshot(String id, List<ModelMapping> mappings, int priority) {
        CredentialHealth state = health.get(id);
        return new CredentialSnapshot(
                id,
                ++version,
                id,
                Platform.OPENAI,
                CredentialKind.API,
                "https://" + id + ".example",
                "sealed",
                mappings,
                COOLDOWN_10S,
                true,
                false,
                true,
                priority,
                WeightMode.MANUAL,
                50,
                null,
                List.of("default"),
                state.account(),
                List.copyOf(state.models().values()),
                T0,
                null,
                null,
                null);
    }
}
