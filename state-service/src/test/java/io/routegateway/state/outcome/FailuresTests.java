package io.routegateway.state.outcome;

import java.net.ConnectException;
import java.util.concurrent.CompletionException;

import io.routegateway.state.outcome.Failures.Verdict;
import io.vertx.pgclient.PgException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Which failures are retried until they pass, which dead-letter the record now, and which get bounded retries. */
class FailuresTests {

    @Test
    void connectionProblemsAnywhereInTheChainAreTransient() {
        assertThat(Failures.classify(new CompletionException(new ConnectException("refused"))))
                .isEqualTo(Verdict.TRANSIENT);
        assertThat(Failures.classify(pg("57P01"))).isEqualTo(Verdict.TRANSIENT);
        assertThat(Failures.classify(pg("08006"))).isEqualTo(Verdict.TRANSIENT);
        assertThat(Failures.classify(pg("40P01"))).isEqualTo(Verdict.TRANSIENT);
        assertThat(Failures.classify(pg("53300"))).isEqualTo(Verdict.TRANSIENT);
        assertThat(Failures.classify(pg("55P03"))).isEqualTo(Verdict.TRANSIENT);
        assertThat(Failures.isTransient(pg("57P01"))).isTrue();
    }

    @Test
    void dataAndConstraintErrorsAreTheRecordsOwn() {
        // 22021: "invalid byte sequence for encoding UTF8: 0x00"
        assertThat(Failures.classify(new CompletionException(pg("22021")))).isEqualTo(Verdict.RECORD);
        assertThat(Failures.classify(pg("22P05"))).isEqualTo(Verdict.RECORD);
        assertThat(Failures.classify(pg("23505"))).isEqualTo(Verdict.RECORD);
        // 54000: index row size exceeds the btree maximum
        assertThat(Failures.classify(pg("54000"))).isEqualTo(Verdict.RECORD);
        assertThat(Failures.classify(new UnknownCredentialException("c1"))).isEqualTo(Verdict.RECORD);
        assertThat(Failures.classify(new PoisonMessageException("x", new ConnectException("refused"))))
                .isEqualTo(Verdict.RECORD);
        assertThat(Failures.isTransient(pg("23505"))).isFalse();
    }

    @Test
    void anythingElseGetsBoundedRetries() {
        assertThat(Failures.classify(new IllegalArgumentException("model_key is required")))
                .isEqualTo(Verdict.UNKNOWN);
        assertThat(Failures.classify(pg("42P01"))).isEqualTo(Verdict.UNKNOWN);
        assertThat(Failures.classify(pg("XX000"))).isEqualTo(Verdict.UNKNOWN);
        assertThat(Failures.classifySqlState(null)).isEqualTo(Verdict.UNKNOWN);
        assertThat(Failures.BOUNDED_RETRIES).isPositive();
    }

    @Test
    void theSqlStateIsFoundInTheChain() {
        assertThat(Failures.sqlState(new CompletionException(pg("22021")))).isEqualTo("22021");
        assertThat(Failures.sqlState(new IllegalStateException())).isNull();
    }

    private static PgException pg(String sqlState) {
        return new PgException("error", "ERROR", sqlState, null);
    }
}
