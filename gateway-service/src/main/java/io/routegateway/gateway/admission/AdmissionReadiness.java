package io.routegateway.gateway.admission;

import jakarta.inject.Singleton;

import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * Ready once the lease reader has read its peers' leases up to where they stood at start: before
 * that this replica would admit on counts that miss the cluster's recent requests. Stays ready
 * afterwards, also while the counts are unshared ({@code gateway.admission.when-unshared} decides
 * then); {@code shared} says which.
 */
@Readiness
@Singleton
public class AdmissionReadiness implements HealthCheck {

    private final LeaseReader reader;
    private final AdmissionStage stage;

    AdmissionReadiness(LeaseReader reader, AdmissionStage stage) {
        this.reader = reader;
        this.stage = stage;
    }

    @Override
    public HealthCheckResponse call() {
        return HealthCheckResponse.named("admissions")
                .status(reader.caughtUp())
                .withData("lag_ms", reader.lagMillis())
                .withData("shared", !stage.unshared())
                .build();
    }
}
