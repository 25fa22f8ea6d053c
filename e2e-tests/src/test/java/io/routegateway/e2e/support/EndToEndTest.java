package io.routegateway.e2e.support;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Base of the end-to-end tests: the shared system, and small helpers for rows and time. */
@ExtendWith(SystemExtension.class)
public abstract class EndToEndTest {

    protected static RouteSystem system;

    @BeforeAll
    static void startSystem() {
        system = RouteSystem.shared();
    }

    /** A TEXT timestamp column as an instant (null stays null). */
    protected static Instant instant(Map<String, Object> row, String column) {
        Object value = row.get(column);
        return value == null ? null : Instant.parse(value.toString());
    }

    /** The model row of (credential, model key); an assertion failure while there is none. */
    protected static Map<String, Object> modelRow(String credentialId, String modelKey) {
        Optional<Map<String, Object>> row = system.database().model(credentialId, modelKey);
        assertThat(row)
                .as("route_credential_models row (%s, %s)", credentialId, modelKey)
                .isPresent();
        return row.get();
    }

    protected static int integer(Map<String, Object> row, String column) {
        return ((Number) row.get(column)).intValue();
    }

    /** Real waiting for a cooldown to run out: returns once the clock has passed {@code moment}. */
    protected static void waitUntilPassed(Instant moment) {
        Duration left = Duration.between(Instant.now(), moment);
        await("clock passes " + moment)
                .atMost(left.isNegative() ? Duration.ofSeconds(1) : left.plusSeconds(5))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> Instant.now().isAfter(moment));
    }
}
