package io.routegateway.recovery.health;

import jakarta.enterprise.context.ApplicationScoped;

import io.routegateway.recovery.schedule.AdvisoryLockLeadership;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * Shows whether this replica is the ticking leader. Always up: a standby is healthy and serves the
 * test API; it only waits for the lock.
 */
@Readiness
@ApplicationScoped
public class LeaderElectionHealthCheck implements HealthCheck {

    public static final String NAME = "recovery leader election";

    private final AdvisoryLockLeadership leadership;

    LeaderElectionHealthCheck(AdvisoryLockLeadership leadership) {
        this.leadership = leadership;
    }

    @Override
    public HealthCheckResponse call() {
        return HealthCheckResponse.named(NAME)
                .up()
                .withData("leader", leadership.isLeader())
                .withData("advisory_lock_key", leadership.lockKey())
                .build();
    }
}
