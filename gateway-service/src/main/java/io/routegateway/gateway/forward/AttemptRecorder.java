package io.routegateway.gateway.forward;

import java.time.Clock;
import java.util.Optional;
import java.util.function.Supplier;

import io.opentelemetry.context.Context;
import io.routegateway.core.event.CredentialEvent;
import io.routegateway.core.event.EventIds;
import io.routegateway.core.failure.Verdict;
import io.routegateway.core.forward.AttemptEvents;
import io.routegateway.core.select.AffinityTable;
import io.routegateway.core.select.RouteRequest;
import io.routegateway.core.select.RouteResult;
import io.routegateway.core.select.Router;
import io.routegateway.gateway.publish.OutcomePublisher;
import io.routegateway.gateway.view.LocalOutcomes;
import io.routegateway.gateway.view.OutcomeWindow;

/**
 * Records a counted attempt: its outcome event is applied to this replica's view at once and
 * published for state-service and the peers; a success is remembered for session affinity.
 */
final class AttemptRecorder {

    private final LocalOutcomes localOutcomes;
    private final OutcomePublisher outcomes;
    private final OutcomeWindow window;
    private final Clock clock;
    private final Supplier<AffinityTable> affinity;

    AttemptRecorder(
            LocalOutcomes localOutcomes,
            OutcomePublisher outcomes,
            OutcomeWindow window,
            Clock clock,
            Supplier<AffinityTable> affinity) {
        this.localOutcomes = localOutcomes;
        this.outcomes = outcomes;
        this.window = window;
        this.clock = clock;
        this.affinity = affinity;
    }

    /**
     * @param verdict already masked: its text reaches an event, a row and the admin API
     * @param trace the attempt's trace context, carried on the outcome record's Kafka headers
     */
    void record(Verdict verdict, RouteResult.Selected selected, RouteRequest route, Context trace) {
        Optional<CredentialEvent> event = AttemptEvents.of(
                verdict, selected.credential().credentialId(), selected.modelKey(), EventIds.next(), clock.instant());
        if (event.isEmpty()) {
            return;
        }
        boolean changedView = localOutcomes.apply(event.get());
        boolean success = verdict instanceof Verdict.Success;
        // Every counted success reaches state-service, also one that changes nothing in this
        // replica's view: a failure another replica or recovery-service recorded moments ago may not
        // have reached this view yet, and only state-service knows. Such successes are coalesced per
        // credential and model within gateway.publish.success-window (OutcomePublisher).
        outcomes.publish(event.get(), changedView, trace);
        window.record(selected.credential().credentialId(), success);
        if (success) {
            Router.rememberSuccess(affinity.get(), route, selected, clock.instant());
        }
    }
}
