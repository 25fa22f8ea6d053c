package io.routegateway.state.publish;

import org.apache.kafka.common.errors.RecordBatchTooLargeException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.SerializationException;

/**
 * Whether an outbox row can ever be published. A message larger than the producer may send, or one
 * the broker refuses as such, fails the same way on every round: it is marked failed instead of
 * being retried forever. Every other send failure (broker unreachable, timeouts, leader changes) may
 * pass and is retried by a later round.
 */
final class Publishability {

    /**
     * What Kafka adds around one record's key and value in a batch of one (batch header, record
     * framing) with room for headers.
     */
    static final int FRAMING_BYTES = 1024;

    private Publishability() {}

    /** Why the message is too large to send, or null when it fits {@code maxMessageBytes}. */
    static String tooLarge(String key, String payload, int maxMessageBytes) {
        long bytes = utf8Length(key) + utf8Length(payload) + FRAMING_BYTES;
        if (bytes <= maxMessageBytes) {
            return null;
        }
        return "the message would be " + bytes + " bytes, more than state.outbox.max-message-bytes (" + maxMessageBytes
                + ")";
    }

    /** Why the failure will come back on every round, or null when a later round may succeed. */
    static String permanentFailure(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof RecordTooLargeException
                    || cause instanceof RecordBatchTooLargeException
                    || cause instanceof SerializationException) {
                return "the producer or broker refused the message: "
                        + cause.getClass().getSimpleName();
            }
        }
        return null;
    }

    static long utf8Length(String text) {
        if (text == null) {
            return 0;
        }
        long bytes = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < 0x80) {
                bytes++;
            } else if (c < 0x800) {
                bytes += 2;
            } else if (Character.isHighSurrogate(c)
                    && i + 1 < text.length()
                    && Character.isLowSurrogate(text.charAt(i + 1))) {
                bytes += 4;
                i++;
            } else {
                bytes += 3;
            }
        }
        return bytes;
    }
}
