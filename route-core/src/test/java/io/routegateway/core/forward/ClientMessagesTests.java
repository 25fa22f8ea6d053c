package io.routegateway.core.forward;

import io.routegateway.core.failure.FailureKind;
import io.routegateway.core.failure.Verdict;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ClientMessagesTests {

    @Test
    void aShortCleanMessageIsUnchanged() {
        assertThat(ClientMessages.bounded("no credential of the pool serves m"))
                .isEqualTo("no credential of the pool serves m");
        assertThat(ClientMessages.bounded(null)).isNull();
    }

    @Test
    void aHugeMessageIsCutAndSaysSo() {
        String message = "route_pool.model_unmatched: " + "x".repeat(100_000);
        String bounded = ClientMessages.bounded(message);
        assertThat(bounded.length()).isLessThan(ClientMessages.MAX_LENGTH + 40);
        assertThat(bounded).startsWith("route_pool.model_unmatched: xxx").endsWith("more characters)");
        assertThat(bounded).contains(String.valueOf(message.length() - ClientMessages.MAX_LENGTH));
    }

    @Test
    void controlCharactersAndLoneSurrogatesAreReplaced() {
        assertThat(ClientMessages.bounded("model m\u0000x\n\u001b[31m")).isEqualTo("model m?x??[31m");
        assertThat(ClientMessages.bounded("a\ud800b")).isEqualTo("a?b");
        assertThat(ClientMessages.bounded("emoji \ud83d\ude00 ok")).isEqualTo("emoji \ud83d\ude00 ok");
    }

    @Test
    void theCutNeverSplitsASurrogatePair() {
        String message = "x".repeat(ClientMessages.MAX_LENGTH - 1) + "\ud83d\ude00" + "tail";
        String bounded = ClientMessages.bounded(message);
        assertThat(bounded).doesNotContain("?").startsWith("x".repeat(ClientMessages.MAX_LENGTH - 1) + "…");
    }

    @Test
    void aTransportFailureNeverNamesTheHost() {
        Verdict refused = new Verdict.Transient(
                FailureKind.TRANSPORT,
                null,
                "connection failed: Connection refused: internal-relay.corp/10.1.2.3:8443",
                null,
                true);
        String detail = ClientMessages.lastFailure(refused);
        assertThat(detail)
                .doesNotContain("internal-relay")
                .doesNotContain("10.1.2.3")
                .doesNotContain("8443");
        assertThat(detail).isEqualTo("the upstream could not be reached or did not answer in time");
    }

    @Test
    void otherFailuresNameTheirReason() {
        assertThat(ClientMessages.lastFailure(
                        new Verdict.Transient(FailureKind.UPSTREAM_STATUS, 503, "upstream returned 503", "{}", true)))
                .isEqualTo("upstream returned 503");
        assertThat(ClientMessages.lastFailure(
                        new Verdict.Permanent(FailureKind.UPSTREAM_STATUS, 401, "invalid_grant", "{}")))
                .isEqualTo("credential revoked: invalid_grant");
        assertThat(ClientMessages.lastFailure(
                        new Verdict.Permanent(FailureKind.TRANSPORT, null, "refused by 10.1.2.3: invalid_grant", null)))
                .isEqualTo("credential revoked: the upstream could not be reached or did not answer in time");
        assertThat(ClientMessages.lastFailure(new Verdict.QuotaExhausted(429, "You exceeded your current quota", "{}")))
                .isEqualTo("quota exhausted: You exceeded your current quota");
        assertThat(ClientMessages.lastFailure(null)).isNull();
    }
}
