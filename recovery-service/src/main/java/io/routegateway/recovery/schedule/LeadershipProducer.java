package io.routegateway.recovery.schedule;

import java.util.Optional;

import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import io.routegateway.recovery.config.RecoveryServiceConfig;
import io.vertx.mutiny.core.Vertx;
import io.vertx.pgclient.PgConnectOptions;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * This replica's candidacy, on its own connection to the database the reactive pool uses (same URL
 * and role, outside the pool).
 */
public class LeadershipProducer {

    @Produces
    @Singleton
    AdvisoryLockLeadership leadership(
            Vertx vertx,
            RecoveryServiceConfig config,
            @ConfigProperty(name = "quarkus.datasource.reactive.url") String reactiveUrl,
            @ConfigProperty(name = "quarkus.datasource.username") Optional<String> user,
            @ConfigProperty(name = "quarkus.datasource.password") Optional<String> password) {
        // the reactive URL may list several hosts; the lock lives on the primary, the first one
        PgConnectOptions options = PgConnectOptions.fromUri(reactiveUrl.split(",")[0].strip());
        user.ifPresent(options::setUser);
        password.ifPresent(options::setPassword);
        return new AdvisoryLockLeadership(vertx, options, config.leader().lockKey());
    }

    void close(@Disposes AdvisoryLockLeadership leadership) {
        leadership.close();
    }
}
