package io.routegateway.state.consume;

import java.net.ConnectException;
import java.util.concurrent.CompletionException;

import io.vertx.pgclient.PgException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Which failures are retried and which dead-letter the message. */
class FailuresTests {

    @Test
    void connectionProblemsAnywhereInTheChainAreTransient() {
        assertThat(Failures.isTransient(new CompletionException(new ConnectException("refused"))))
                .isTrue();
        assertThat(Failures.isTransient(new PgException("terminating connection", "FATAL", "57P01", null)))
                .isTrue();
        assertThat(Failures.isTransient(new PgException("deadlock detected", "ERROR", "40P01", null)))
                .isTrue();
        assertThat(Failures.isTransient(new PgException("lock not available", "ERROR", "55P03", null)))
                .isTrue();
    }

    @Test
    void theMessagesOwnProblemsAreNot() {
        assertThat(Failures.isTransient(new UnknownCredentialException("c1"))).isFalse();
        assertThat(Failures.isTransient(new IllegalArgumentException("model_key is required")))
                .isFalse();
        assertThat(Failures.isTransient(new PgException("duplicate key", "ERROR", "23505", null)))
                .isFalse();
        assertThat(Failures.isTransient(new PoisonMessageException("x", new ConnectException("refused"))))
                .isFalse();
    }
}
