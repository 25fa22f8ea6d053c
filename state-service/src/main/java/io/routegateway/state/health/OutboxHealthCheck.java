package io.routegateway.state.health;

import jakarta.enterprise.context.ApplicationScoped;

import io.routegateway.state.publish.OutboxRelay;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Readiness;

/**
 * Reports the outbox in the readiness data: rows waiting, rows marked failed (snapshots that can
 * never be published) and the last such failure. It stays UP: a snapshot that cannot be published
 * is an operator's problem to fix (shorten the field, republish), and taking the service out of
 * rotation would only stop every other write as well.
 */
@Readiness
@ApplicationScoped
public class OutboxHealthCheck implements HealthCheck {

    static final String NAME = "state-outbox";

    private final OutboxRelay relay;

    OutboxHealthCheck(OutboxRelay relay) {
        this.relay = relay;
    }

    @Override
    public HealthCheckResponse call() {
        HealthCheckResponseBuilder response = HealthCheckResponse.named(NAME)
                .up()
                .withData("pending_rows", relay.pendingRows())
                .withData("failed_rows", relay.failedRows());
        String lastFailure = relay.lastFailure();
        if (lastFailure != null) {
            response.withData("last_failure", lastFailure);
        }
        return response.build();
    }
}
