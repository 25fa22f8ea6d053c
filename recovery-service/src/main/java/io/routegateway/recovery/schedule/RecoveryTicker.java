package io.routegateway.recovery.schedule;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkus.runtime.Startup;
import io.quarkus.scheduler.Scheduled;
import io.routegateway.common.config.RouteConfig;
import io.routegateway.core.event.CredentialEvent;
import io.routegateway.core.event.EventIds;
import io.routegateway.core.recovery.DefaultZone;
import io.routegateway.core.recovery.RecoveryAction;
import io.routegateway.core.recovery.RecoveryConfig;
import io.routegateway.core.recovery.RecoveryDecisions;
import io.routegateway.core.recovery.RecoveryMode;
import io.routegateway.core.state.CredentialHealth;
import io.routegateway.recovery.config.RecoveryServiceConfig;
import io.routegateway.recovery.metrics.RecoveryMetrics;
import io.routegateway.recovery.probe.ModelTestService;
import io.routegateway.recovery.publish.EventPublisher;
import io.routegateway.recovery.repository.CredentialRecord;
import io.routegateway.recovery.repository.CredentialRepository;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import org.jboss.logging.Logger;

/**
 * The recovery ticker: every {@code recovery.tick-seconds}, the replica that holds the leader lock
 * walks every non-archived account automation may touch, decides with route-core what each needs on this tick, and
 * publishes it. It only wires: load → {@link RecoveryDecisions#decide} → publish. The scheduler's
 * SKIP only prevents overlap inside this process; across replicas the advisory lock does. Created
 * at start-up, so the leadership gauge exists before the first tick.
 */
@Startup
@ApplicationScoped
public class RecoveryTicker {

    private static final Logger LOG = Logger.getLogger(RecoveryTicker.class);

    /** What handling one account on one tick came to. */
    private enum Handled {
        NOTHING,
        REACTIVATED,
        PROBED,
        FAILED
    }

    /** An account that needs recovery and has a recovery mode, with its rule. */
    private record InRecovery(CredentialRecord credential, RecoveryConfig rule, CredentialHealth health) {}

    private final AdvisoryLockLeadership leadership;
    private final TickMemory memory;
    private final CredentialRepository credentials;
    private final ModelTestService modelTests;
    private final EventPublisher publisher;
    private final Clock clock;
    private final RecoveryMetrics metrics;
    private final ZoneId defaultZone;
    private final int probeConcurrency;

    RecoveryTicker(
            AdvisoryLockLeadership leadership,
            TickMemory memory,
            CredentialRepository credentials,
            ModelTestService modelTests,
            EventPublisher publisher,
            Clock clock,
            RecoveryMetrics metrics,
            RecoveryServiceConfig config,
            RouteConfig routeConfig) {
        this.leadership = leadership;
        this.memory = memory;
        this.credentials = credentials;
        this.modelTests = modelTests;
        this.publisher = publisher;
        this.clock = clock;
        this.metrics = metrics;
        this.defaultZone =
                DefaultZone.resolve(routeConfig.defaultTimeZone(), config.defaultTimeZone(), ZoneId.systemDefault());
        this.probeConcurrency = config.probe().concurrency();
        metrics.leaderGauge(leadership::isLeader);
    }

    @Scheduled(
            identity = "recovery-tick",
            every = "${recovery.tick-seconds}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> scheduledTick() {
        return tick().replaceWithVoid();
    }

    /**
     * One tick: lead (or stand by), then walk. A replica that has just taken the lock starts a new
     * term with an empty memory, so its first tick fires no schedule (route-core: nothing fires
     * without a previous tick) and every healthcheck account is due.
     */
    public Uni<TickReport> tick() {
        return leadership.tryLead().chain(lead -> {
            if (!lead.isLeader()) {
                metrics.tick(false);
                return Uni.createFrom().item(TickReport.STANDBY);
            }
            if (lead == AdvisoryLockLeadership.Lead.ACQUIRED) {
                memory.forget();
            }
            metrics.tick(true);
            Instant now = clock.instant();
            Instant previous = memory.advance(now);
            return walk(previous, now);
        });
    }

    private Uni<TickReport> walk(Instant previousTick, Instant thisTick) {
        return credentials.recoveryCandidates().chain(all -> {
            List<CredentialRecord> withRule = new ArrayList<>();
            List<RecoveryConfig> rules = new ArrayList<>();
            for (CredentialRecord credential : all) {
                // forgiving read: a corrupt rule is off and never breaks the loop
                RecoveryConfig rule = RecoveryConfig.read(credential.config(), defaultZone);
                if (rule.mode() != RecoveryMode.OFF) {
                    withRule.add(credential);
                    rules.add(rule);
                }
            }
            List<String> ids = withRule.stream().map(CredentialRecord::id).toList();
            return credentials.modelRows(ids).chain(rows -> {
                List<InRecovery> inRecovery = new ArrayList<>();
                for (int i = 0; i < withRule.size(); i++) {
                    CredentialRecord credential = withRule.get(i);
                    CredentialHealth health =
                            CredentialHealth.of(credential.account(), rows.getOrDefault(credential.id(), List.of()));
                    if (RecoveryDecisions.needsRecovery(health)) {
                        inRecovery.add(new InRecovery(credential, rules.get(i), health));
                    }
                }
                return Multi.createFrom()
                        .iterable(inRecovery)
                        .onItem()
                        .transformToUni(due -> handle(due, previousTick, thisTick))
                        .merge(probeConcurrency)
                        .collect()
                        .asList()
                        .map(handled -> report(all.size(), inRecovery.size(), handled));
            });
        });
    }

    private Uni<Handled> handle(InRecovery due, Instant previousTick, Instant thisTick) {
        CredentialRecord credential = due.credential();
        return Uni.createFrom()
                .deferred(() -> {
                    RecoveryAction action = RecoveryDecisions.decide(
                            due.rule(),
                            due.health(),
                            credential.platform(),
                            credential.kind(),
                            credential.modelMappings(),
                            previousTick,
                            thisTick,
                            memory.lastProbe(credential.id()));
                    return act(credential, action, thisTick);
                })
                .onFailure()
                .recoverWithItem(failure -> {
                    LOG.warnf(failure, "Recovery of credential %s failed on this tick", credential.id());
                    metrics.credentialFailed();
                    return Handled.FAILED;
                });
    }

    private Uni<Handled> act(CredentialRecord credential, RecoveryAction action, Instant thisTick) {
        if (action instanceof RecoveryAction.Reactivate reactivate) {
            LOG.infof(
                    "Scheduled reactivation of credential %s (configured %s)",
                    credential.id(), reactivate.scheduledTimeText());
            metrics.reactivated();
            return publisher
                    .outcome(new CredentialEvent.ScheduledReactivationTriggered(
                            EventIds.next(), credential.id(), thisTick, reactivate.scheduledTimeText()))
                    .replaceWith(Handled.REACTIVATED);
        }
        if (action instanceof RecoveryAction.Probe probe) {
            // the interval runs from the attempt, pass or fail: a failure waits for the next interval
            memory.probed(credential.id(), thisTick);
            return modelTests
                    .test(credential, probe.model(), ModelTestService.Trigger.HEALTHCHECK)
                    .replaceWith(Handled.PROBED);
        }
        if (action instanceof RecoveryAction.Nothing) {
            return Uni.createFrom().item(Handled.NOTHING);
        }
        throw new IllegalStateException("unknown recovery action " + action);
    }

    private static TickReport report(int walked, int inRecovery, List<Handled> handled) {
        return new TickReport(
                true,
                walked,
                inRecovery,
                count(handled, Handled.REACTIVATED),
                count(handled, Handled.PROBED),
                count(handled, Handled.FAILED));
    }

    private static int count(List<Handled> handled, Handled value) {
        return (int) handled.stream().filter(value::equals).count();
    }
}
