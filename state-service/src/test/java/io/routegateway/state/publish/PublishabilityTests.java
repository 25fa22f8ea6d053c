package io.routegateway.state.publish;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletionException;

import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.TimeoutException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Which outbox rows can never be published (marked failed) and which are retried. */
class PublishabilityTests {

    @Test
    void aMessageOverTheLimitIsTooLargeAndOneWithinIsNot() {
        int max = 10_000;
        String fits = "x".repeat(max - Publishability.FRAMING_BYTES - 3);
        assertThat(Publishability.tooLarge("key", fits, max)).isNull();
        assertThat(Publishability.tooLarge("key", fits + "x", max))
                .isEqualTo("the message would be 10001 bytes, more than state.outbox.max-message-bytes (10000)");
        assertThat(Publishability.tooLarge("key", null, max)).isNull();
    }

    @Test
    void bytesAreCountedInUtf8() {
        for (String text : new String[] {"ascii", "é", "模型", "\uD83D\uDE00", ""}) {
            assertThat(Publishability.utf8Length(text))
                    .as(text)
                    .isEqualTo(text.getBytes(StandardCharsets.UTF_8).length);
        }
    }

    @Test
    void onlyRefusalsOfTheMessageItselfArePermanent() {
        assertThat(Publishability.permanentFailure(new CompletionException(new RecordTooLargeException("big"))))
                .isEqualTo("the producer or broker refused the message: RecordTooLargeException");
        assertThat(Publishability.permanentFailure(new TimeoutException("no broker")))
                .isNull();
        assertThat(Publishability.permanentFailure(new IllegalStateException("broker unreachable")))
                .isNull();
    }
}
