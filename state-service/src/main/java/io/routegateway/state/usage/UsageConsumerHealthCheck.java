package io.routegateway.state.usage;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Readiness;

/**
 * Reports in the readiness data whether the usage consumer is paused ({@code paused}, and while it is,
 * {@code reason}, {@code sqlstate}, {@code since}, {@code failed_attempts}). It stays UP, like the
 * outbox check: the database is shared by every replica, so a DOWN would take all of them out of
 * rotation at once and stop the admin API and credential-state writes for the sake of the logs,
 * which are waiting safely in Kafka. The pause is also the {@code state.usage.paused} gauge.
 */
@Readiness
@ApplicationScoped
public class UsageConsumerHealthCheck implements HealthCheck {

    static final String NAME = "state-usage-consumer";

    private final UsageStorage storage;

    UsageConsumerHealthCheck(UsageStorage storage) {
        this.storage = storage;
    }

    @Override
    public HealthCheckResponse call() {
        UsageStorage.Pause pause = storage.pause();
        HealthCheckResponseBuilder response =
                HealthCheckResponse.named(NAME).up().withData("paused", pause != null);
        if (pause != null) {
            response.withData("reason", pause.reason())
                    .withData("since", pause.since().toString())
                    .withData("failed_attempts", pause.failedAttempts());
            if (pause.sqlState() != null) {
                response.withData("sqlstate", pause.sqlState());
            }
        }
        return response.build();
    }
}
