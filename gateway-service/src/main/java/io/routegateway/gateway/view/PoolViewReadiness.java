package io.routegateway.gateway.view;

import jakarta.inject.Singleton;

import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * Ready once the pool view has caught up with the state topics as they were at start. Stays ready
 * afterwards even if Kafka goes away: the gateway keeps serving from its last view.
 */
@Readiness
@Singleton
public class PoolViewReadiness implements HealthCheck {

    private final StateTopicsReader reader;
    private final PoolViewHolder holder;

    PoolViewReadiness(StateTopicsReader reader, PoolViewHolder holder) {
        this.reader = reader;
        this.holder = holder;
    }

    @Override
    public HealthCheckResponse call() {
        return HealthCheckResponse.named("pool-view")
                .status(reader.caughtUp())
                .withData("credentials", holder.pool().credentials().size())
                .withData("lag", reader.lag())
                .build();
    }
}
