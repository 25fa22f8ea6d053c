package io.routegateway.state.signing;

import java.nio.charset.StandardCharsets;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import io.routegateway.core.crypto.StateSignature;
import io.routegateway.core.crypto.StateVerifier;
import io.routegateway.state.metrics.StateMetrics;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;

/**
 * Checks the producer signature of what state-service consumes from the producing services ({@code
 * route.outcomes}, {@code route.usage}) against the configured public keys ({@link
 * StateSignature.Domain#PRODUCER}). A message is signed over the topic it was read from, its key and
 * its value, so a record moved to another topic or key, altered, unsigned or signed by a key
 * state-service does not hold never passes. Every message that passes is counted under the key id
 * that signed it ({@code state.producer.records{topic,key_id}}): a compromised producer's key shows
 * in what it signed. The consumers dead-letter what does not pass, with the reason {@code signature}.
 */
@Singleton
public class ProducerSignatures {

    /** What the check found; {@code keyId} is the signer's when valid, else what the header claimed (may be null). */
    public record Verdict(StateVerifier.Result result, String keyId) {

        public boolean valid() {
            return result == StateVerifier.Result.VALID;
        }

        /** For the dead letter and the log: the result and the claimed key id, never the signature. */
        public String describe() {
            return switch (result) {
                case VALID -> "signed by " + keyId;
                case MISSING -> "not signed";
                case UNKNOWN_KEY -> "signed by an unknown key id";
                case INVALID -> "signature does not verify under key " + keyId;
            };
        }
    }

    private final StateVerifier verifier;
    private final StateMetrics metrics;

    @Inject
    ProducerSignatures(ProducerSigningConfig config, StateMetrics metrics) {
        this(StateVerifier.fromSpec(StateSignature.Domain.PRODUCER, config.publicKeys()), metrics);
    }

    /** @param verifier a verifier of the {@link StateSignature.Domain#PRODUCER} domain */
    public ProducerSignatures(StateVerifier verifier, StateMetrics metrics) {
        if (verifier.domain() != StateSignature.Domain.PRODUCER) {
            throw new IllegalArgumentException(
                    "producer records are verified with producer keys, not " + verifier.domain());
        }
        this.verifier = verifier;
        this.metrics = metrics;
        for (String keyId : verifier.keyIds()) {
            metrics.producerKeyConfigured(keyId);
        }
    }

    /** Checks one consumed message; a valid one is counted under its signer's key id. */
    public Verdict check(ConsumerRecord<String, String> record) {
        String keyId = header(record, StateSignature.KEY_ID_HEADER);
        StateVerifier.Result result = verifier.verify(
                record.topic(), record.key(), record.value(), keyId, header(record, StateSignature.SIGNATURE_HEADER));
        if (result == StateVerifier.Result.VALID) {
            metrics.producerRecord(record.topic(), keyId);
        }
        // only a configured key id is named: any other is attacker text, never echoed into logs or dead letters
        boolean configured = result == StateVerifier.Result.VALID || result == StateVerifier.Result.INVALID;
        return new Verdict(result, configured ? keyId : null);
    }

    private static String header(ConsumerRecord<String, String> record, String name) {
        Header header = record.headers().lastHeader(name);
        return header == null || header.value() == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }
}
