package io.routegateway.core.select;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;

import io.routegateway.core.event.AccessKeySnapshot;
import io.routegateway.core.event.CredentialSnapshot;
import io.routegateway.core.event.GroupSnapshot;
import io.routegateway.core.model.Platform;
import io.routegateway.core.model.Protocol;
import io.routegateway.core.model.WeightMode;
import io.routegateway.core.state.AccountState;
import io.routegateway.core.state.AccountStatus;
import io.routegateway.core.state.ModelState;
import io.routegateway.core.state.ModelStatus;
import io.routegateway.core.testing.CredentialBuilder;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.statistics.Statistics;

import static io.routegateway.core.select.Fixtures.NOW;
import static io.routegateway.core.select.Fixtures.cred;
import static io.routegateway.core.select.Fixtures.group;
import static io.routegateway.core.select.Fixtures.key;
import static org.assertj.core.api.Assertions.assertThat;

/** Invariants of selection over random pools (each generated from one seed). */
class RouterProperties {

    private static final String[] MODELS = {"m1", "m2", "m3"};

    /** A random pool: every rule of steps 1–5 has a fair chance to apply. */
    record Scenario(
            PoolView view,
            AccessKeySnapshot key,
            String model,
            Set<String> tried,
            Map<String, CredentialStats> stats,
            List<CredentialSnapshot> credentials) {}

    static Scenario scenario(long seed, boolean singleExposingGroup) {
        SplittableRandom r = new SplittableRandom(seed);
        int n = 1 + r.nextInt(25);
        List<CredentialSnapshot> credentials = new ArrayList<>();
        Map<String, CredentialStats> stats = new HashMap<>();
        Set<String> tried = new HashSet<>();
        for (int i = 0; i < n; i++) {
            String id = "c" + i;
            CredentialBuilder c = cred(id).priority(r.nextInt(3));
            if (r.nextInt(10) == 0) {
                c.disabled();
            }
            if (r.nextInt(15) == 0) {
                c.archived();
            }
            if (r.nextInt(15) == 0) {
                c.notInPool();
            }
            int status = r.nextInt(10);
            if (status < 4) {
                c.status(AccountStatus.values()[1 + r.nextInt(AccountStatus.values().length - 1)]);
            }
            if (r.nextInt(6) == 0) {
                c.quota(r.nextBoolean() ? 0L : 5L);
            }
            if (r.nextInt(6) == 0) {
                c.official(r.nextBoolean() ? Platform.CLAUDE : Platform.OPENAI);
            } else {
                for (String model : MODELS) {
                    if (r.nextInt(3) > 0) {
                        c.maps(model, r.nextBoolean() ? model : "up-" + model + "-" + r.nextInt(2));
                    }
                }
                if (r.nextInt(8) == 0) {
                    c.maps("*", "catch-all");
                }
            }
            if (r.nextInt(5) == 0) {
                c.manualWeight(r.nextInt(4) == 0 ? 0 : 1 + r.nextInt(100));
            }
            int cooling = r.nextInt(4);
            if (cooling == 1) {
                c.accountCooling(NOW.plusSeconds(1 + r.nextInt(60)));
            } else if (cooling == 2) {
                c.accountCooling(NOW.minusSeconds(1 + r.nextInt(60)));
            }
            for (String model : MODELS) {
                for (String keyName : new String[] {model, "up-" + model + "-0", "up-" + model + "-1", "catch-all"}) {
                    int row = r.nextInt(12);
                    if (row == 0) {
                        c.paused(keyName);
                    } else if (row == 1) {
                        c.errored(keyName);
                    } else if (row == 2) {
                        c.modelCooling(keyName, NOW.plusSeconds(1 + r.nextInt(60)));
                    } else if (row == 3) {
                        c.modelCooling(keyName, NOW.minusSeconds(1 + r.nextInt(60)));
                    }
                }
            }
            if (singleExposingGroup) {
                c.groups("g1");
            } else {
                c.groups(r.nextBoolean() ? "g1" : "g2", r.nextInt(3) == 0 ? "g2" : "g1");
            }
            if (r.nextInt(5) == 0) {
                tried.add(id);
            }
            if (r.nextBoolean()) {
                stats.put(id, new CredentialStats(r.nextInt(50), r.nextInt(50)));
            }
            credentials.add(dedupeRows(c.build()));
        }
        List<GroupSnapshot> groups = new ArrayList<>();
        AccessKeySnapshot key;
        if (singleExposingGroup) {
            groups.add(group("g1").exposes(MODELS).build());
            key = key("k").groups("g1").build();
        } else {
            for (String id : new String[] {"g1", "g2"}) {
                Fixtures.Group g = group(id);
                if (r.nextInt(6) == 0) {
                    g.disabled();
                }
                if (r.nextInt(4) == 0) {
                    g.exposes(MODELS[r.nextInt(MODELS.length)]);
                }
                if (r.nextInt(3) == 0) {
                    g.manualWeight(r.nextInt(5) == 0 ? 0 : 1 + r.nextInt(100));
                }
                groups.add(g.build());
            }
            key = key("k").groups("g1", "g2").build();
        }
        String model = r.nextInt(6) == 0 ? null : MODELS[r.nextInt(MODELS.length)];
        PoolView view = PoolView.of(credentials, groups, List.of(key)).withStats(stats);
        return new Scenario(view, key, model, tried, stats, credentials);
    }

    /** One row per model key, as the table's primary key guarantees. */
    private static CredentialSnapshot dedupeRows(CredentialSnapshot c) {
        Map<String, ModelState> rows = new HashMap<>();
        for (ModelState row : c.models()) {
            rows.putIfAbsent(row.modelKey(), row);
        }
        return new CredentialSnapshot(
                c.credentialId(),
                c.version(),
                c.name(),
                c.platform(),
                c.kind(),
                c.baseUrl(),
                c.encryptedSecret(),
                c.modelMappings(),
                c.failurePolicy(),
                c.enabled(),
                c.archived(),
                c.inPool(),
                c.priority(),
                c.weightMode(),
                c.weight(),
                c.quotaRemaining(),
                c.groupIds(),
                c.account(),
                new ArrayList<>(rows.values()),
                c.publishedAt(),
                c.oauth(),
                null,
                null);
    }

    private static RouteResult route(Scenario s, long rngSeed, boolean trace) {
        return route(s, rngSeed, trace, ProtocolRule.NATIVE);
    }

    private static RouteResult route(Scenario s, long rngSeed, boolean trace, ProtocolRule rule) {
        return Router.route(
                s.view(),
                new RouteRequest(s.key(), Protocol.OPENAI_CHAT, s.model(), null, rule),
                s.tried(),
                null,
                new SplittableRandom(rngSeed),
                NOW,
                trace);
    }

    @Property(tries = 600)
    void selectionNeverReturnsAPausedOrErrorModelOrANonOkAccount(@ForAll long seed) {
        Scenario s = scenario(seed, false);
        RouteResult result = route(s, seed, false);
        if (!(result instanceof RouteResult.Selected selected)) {
            return;
        }
        CredentialSnapshot c = selected.credential();
        assertThat(c.account().status()).isEqualTo(AccountStatus.OK);
        assertThat(c.enabled()).isTrue();
        assertThat(c.archived()).isFalse();
        assertThat(c.inPool()).isTrue();
        assertThat(SelectionSteps.hasQuota(c)).isTrue();
        assertThat(c.platform().accepts(c.kind())).isTrue();
        assertThat(SelectionSteps.isWeightZero(c)).isFalse();
        if (selected.modelKey() != null) {
            for (ModelState row : c.models()) {
                if (row.modelKey().equals(selected.modelKey())) {
                    assertThat(row.isHardExcluded()).isFalse();
                }
            }
        }
        if (!selected.fromCoolingFallback()) {
            assertThat(c.account().isCoolingAt(NOW)).isFalse();
        }
    }

    @Property(tries = 600)
    void selectionNeverReturnsAnExcludedCredential(@ForAll long seed) {
        Scenario s = scenario(seed, false);
        RouteResult result = route(s, seed, false);
        if (result instanceof RouteResult.Selected selected) {
            assertThat(s.tried()).doesNotContain(selected.credential().credentialId());
        }
    }

    @Property(tries = 400)
    void buildingTheTraceNeverChangesTheDecision(@ForAll long seed) {
        Scenario s = scenario(seed, false);
        RouteResult plain = route(s, seed, false);
        RouteResult traced = route(s, seed, true);
        if (plain instanceof RouteResult.Selected a) {
            RouteResult.Selected b = (RouteResult.Selected) traced;
            assertThat(b.credential()).isEqualTo(a.credential());
            assertThat(b.group()).isEqualTo(a.group());
            assertThat(b.fromCoolingFallback()).isEqualTo(a.fromCoolingFallback());
        } else {
            RouteResult.Refused a = (RouteResult.Refused) plain;
            RouteResult.Refused b = (RouteResult.Refused) traced;
            assertThat(b.code()).isEqualTo(a.code());
            assertThat(b.trace().outcome()).isEqualTo(a.code());
        }
    }

    @Property(tries = 800)
    void routerAgreesWithTheReferenceSteps(@ForAll long seed) {
        Scenario s = scenario(seed, true);
        // the reference steps are the spec's, which know no protocol rule
        RouteResult result = route(s, seed, false, Fixtures.EVERY_CREDENTIAL);
        SelectionSteps.PoolSelection reference =
                SelectionSteps.selectFromPool(s.view().pool("g1"), s.model(), s.tried(), NOW);
        if (reference.failure() != null) {
            Statistics.label("reference").collect(reference.failure().wire());
            assertThat(result).isInstanceOf(RouteResult.Refused.class);
            assertThat(((RouteResult.Refused) result).code()).isEqualTo(reference.failure());
            return;
        }
        assertThat(result).isInstanceOf(RouteResult.Selected.class);
        RouteResult.Selected selected = (RouteResult.Selected) result;
        assertThat(selected.fromCoolingFallback()).isEqualTo(reference.fromCoolingFallback());
        Statistics.label("reference").collect(selected.fromCoolingFallback() ? "fallback" : "eligible");
        if (selected.fromCoolingFallback()) {
            PoolCandidate expected = reference.selected().get(0);
            assertThat(selected.credential().credentialId()).isEqualTo(expected.credentialId());
            assertThat(selected.recoveryAt()).isEqualTo(reference.recoveryAt());
            return;
        }
        // the pick is one the reference chooser can make: eligible, in the lowest tier, weight > 0
        int tier = reference.selected().stream()
                .mapToInt(c -> c.credential().priority())
                .min()
                .orElseThrow();
        Optional<PoolCandidate> expected = reference.selected().stream()
                .filter(c -> c.credentialId().equals(selected.credential().credentialId()))
                .findFirst();
        assertThat(expected).isPresent();
        assertThat(expected.get().credential().priority()).isEqualTo(tier);
        assertThat(selected.modelKey()).isEqualTo(expected.get().modelKey());
        assertThat(selected.upstreamModel()).isEqualTo(expected.get().upstreamModel());
        assertThat(CredentialChooser.choose(reference.selected(), null, s.stats(), new SplittableRandom(seed)))
                .isPresent();
    }

    @Property(tries = 300)
    void cheapStateUpdateMatchesAFullRebuild(@ForAll long seed) {
        Scenario s = scenario(seed, false);
        SplittableRandom r = new SplittableRandom(seed ^ 0x5DEECE66DL);
        CredentialSnapshot target =
                s.credentials().get(r.nextInt(s.credentials().size()));
        AccountState account = target.account();
        // an outcome applied locally: new cooldown, new model rows, new weight — same routing shape
        CredentialSnapshot updated = new CredentialSnapshot(
                target.credentialId(),
                target.version() + 1,
                target.name(),
                target.platform(),
                target.kind(),
                target.baseUrl(),
                target.encryptedSecret(),
                target.modelMappings(),
                target.failurePolicy(),
                target.enabled(),
                target.archived(),
                target.inPool(),
                target.priority(),
                WeightMode.MANUAL,
                r.nextInt(101),
                target.quotaRemaining(),
                target.groupIds(),
                new AccountState(
                        account.status(),
                        account.transientFailureCount() + 1,
                        NOW.plusSeconds(r.nextInt(30)),
                        NOW.plusSeconds(r.nextInt(30)),
                        "transport",
                        null,
                        null,
                        0,
                        null),
                r.nextBoolean() ? List.of() : List.of(ModelState.created("m1", ModelStatus.PAUSED, NOW)),
                target.publishedAt(),
                target.oauth(),
                null,
                null);
        assertThat(PoolView.sameRoutingShape(target, updated)).isTrue();
        route(s, seed, false); // fills the per-model index the cheap path then shares
        PoolView cheap = s.view().with(updated);
        List<CredentialSnapshot> replaced = new ArrayList<>(s.credentials());
        replaced.removeIf(c -> c.credentialId().equals(target.credentialId()));
        replaced.add(updated);
        PoolView full =
                PoolView.of(replaced, s.view().groups(), List.of(s.key())).withStats(s.stats());
        RouteResult a = Router.route(
                cheap,
                new RouteRequest(s.key(), Protocol.OPENAI_CHAT, s.model(), null),
                s.tried(),
                null,
                new SplittableRandom(seed),
                NOW,
                false);
        RouteResult b = Router.route(
                full,
                new RouteRequest(s.key(), Protocol.OPENAI_CHAT, s.model(), null),
                s.tried(),
                null,
                new SplittableRandom(seed),
                NOW,
                false);
        Statistics.label("update").collect(a instanceof RouteResult.Selected ? "selected" : "refused");
        if (a instanceof RouteResult.Selected sa) {
            assertThat(b).isInstanceOf(RouteResult.Selected.class);
            assertThat(((RouteResult.Selected) b).credential()).isEqualTo(sa.credential());
            assertThat(((RouteResult.Selected) b).fromCoolingFallback()).isEqualTo(sa.fromCoolingFallback());
        } else {
            assertThat(((RouteResult.Refused) b).code()).isEqualTo(((RouteResult.Refused) a).code());
        }
    }
}
