package io.routegateway.recovery.schedule;

import java.time.Duration;
import java.util.Optional;

import jakarta.inject.Inject;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.routegateway.recovery.config.RecoveryServiceConfig;
import io.routegateway.recovery.health.LeaderElectionHealthCheck;
import io.routegateway.recovery.support.MutableClock;
import io.routegateway.recovery.support.RecoveryTestProfile;
import io.routegateway.recovery.support.TestCredentials;
import io.routegateway.testsupport.Management;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import io.vertx.pgclient.PgConnectOptions;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static io.restassured.RestAssured.given;
import static io.routegateway.recovery.support.TestCredentials.credential;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;

/**
 * Two recovery-service candidates against one PostgreSQL: this application's own, and a second
 * replica's built the same way in the test.
 */
@QuarkusTest
@TestProfile(RecoveryTestProfile.class)
class LeaderElectionTests {

    @Inject
    RecoveryTicker ticker;

    @Inject
    AdvisoryLockLeadership thisReplica;

    @Inject
    RecoveryServiceConfig config;

    @Inject
    Vertx vertx;

    @Inject
    Pool pool;

    @Inject
    MutableClock clock;

    @Inject
    TestCredentials credentials;

    @ConfigProperty(name = "quarkus.datasource.reactive.url")
    String reactiveUrl;

    @ConfigProperty(name = "quarkus.datasource.username")
    Optional<String> user;

    @ConfigProperty(name = "quarkus.datasource.password")
    Optional<String> password;

    @BeforeEach
    void noAccounts() {
        credentials.deleteAll();
    }

    AdvisoryLockLeadership otherReplica() {
        PgConnectOptions options = PgConnectOptions.fromUri(reactiveUrl);
        user.ifPresent(options::setUser);
        password.ifPresent(options::setPassword);
        return new AdvisoryLockLeadership(vertx, options, config.leader().lockKey());
    }

    TickReport tick() {
        return ticker.tick().await().atMost(Duration.ofSeconds(30));
    }

    AdvisoryLockLeadership.Lead attempt(AdvisoryLockLeadership candidate) {
        return candidate.tryLead().await().atMost(Duration.ofSeconds(30));
    }

    /** The backend pid of the session holding the leader lock in this database, if any. */
    Optional<Integer> lockHolder() {
        return Optional.ofNullable(pool.preparedQuery("""
                                SELECT pid FROM pg_locks
                                WHERE locktype = 'advisory' AND granted AND objsubid = 1
                                  AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
                                  AND ((classid::bigint << 32) | objid::bigint) = $1
                                """)
                        .execute(Tuple.of(config.leader().lockKey()))
                        .await()
                        .indefinitely()
                        .iterator())
                .filter(rows -> rows.hasNext())
                .map(rows -> rows.next().getInteger("pid"));
    }

    /** Kills the leader's database session, as a crashed pod or a cut network would end it. */
    void endLeaderSession() {
        int pid = lockHolder().orElseThrow();
        pool.preparedQuery("SELECT pg_terminate_backend($1)")
                .execute(Tuple.of(pid))
                .await()
                .indefinitely();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> !pool.preparedQuery("SELECT 1 FROM pg_stat_activity WHERE pid = $1")
                        .execute(Tuple.of(pid))
                        .await()
                        .indefinitely()
                        .iterator()
                        .hasNext());
    }

    @Test
    void exactlyOneReplicaTicksAndAStandbyTakesOverWithinOneTickWhenTheLeaderDies() {
        assertThat(tick().leader()).isTrue();
        try (AdvisoryLockLeadership other = otherReplica()) {
            for (int round = 0; round < 3; round++) {
                assertThat(attempt(other)).isEqualTo(AdvisoryLockLeadership.Lead.STANDBY);
                assertThat(tick().leader()).isTrue();
            }
            assertThat(other.isLeader()).isFalse();
            given().get(Management.url("/health/ready"))
                    .then()
                    .statusCode(200)
                    .body("checks.find { it.name == '" + LeaderElectionHealthCheck.NAME + "' }.data.leader", is(true));

            endLeaderSession();

            assertThat(attempt(other)).as("the standby's next attempt").isEqualTo(AdvisoryLockLeadership.Lead.ACQUIRED);
            TickReport afterFailover = tick();
            assertThat(afterFailover.leader())
                    .as("the old leader now stands by")
                    .isFalse();
            assertThat(afterFailover.walked()).isZero();
            assertThat(thisReplica.isLeader()).isFalse();
            assertThat(attempt(other)).isEqualTo(AdvisoryLockLeadership.Lead.HELD);
            given().get(Management.url("/metrics")).then().statusCode(200).body(containsString("recovery_leader 0.0"));
        }
        // closing the other replica ends its session and releases the lock
        assertThat(tick().leader()).isTrue();
        assertThat(thisReplica.isLeader()).isTrue();
    }

    @Test
    void aNewTermStartsWithEmptyClocks() {
        credentials.insert(credential()
                .status("error")
                .config("{\"recovery\":{\"mode\":\"scheduled\",\"times\":[\"00:00\"],\"time_zone\":\"UTC\"}}"));
        credentials.insert(credential()
                .status("error")
                .config("{\"model_mappings\":[{\"from\":\"a\",\"to\":\"up-a\"}],"
                        + "\"recovery\":{\"mode\":\"healthcheck\",\"interval_minutes\":30}}"));
        clock.set("2026-08-11T23:59:00Z");
        assertThat(tick().probed()).isEqualTo(1);
        clock.set("2026-08-11T23:59:50Z");
        assertThat(tick().probed()).as("probed a minute ago").isZero();

        try (AdvisoryLockLeadership other = otherReplica()) {
            endLeaderSession();
            assertThat(attempt(other)).isEqualTo(AdvisoryLockLeadership.Lead.ACQUIRED);
        }
        clock.set("2026-08-12T00:00:20Z");
        TickReport firstOfNewTerm = tick();

        assertThat(firstOfNewTerm.leader()).isTrue();
        assertThat(firstOfNewTerm.reactivated())
                .as("no previous tick in a new term: 00:00 does not fire retroactively")
                .isZero();
        assertThat(firstOfNewTerm.probed())
                .as("the last-probe clock restarted with the term")
                .isEqualTo(1);
    }
}
