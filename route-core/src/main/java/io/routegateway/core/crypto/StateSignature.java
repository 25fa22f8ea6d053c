package io.routegateway.core.crypto;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The Ed25519 signature state-service puts on every record of the compacted state topics, and what
 * it covers; the same scheme, in its own {@link Domain#PRODUCER} domain, signs what gateway-service
 * and recovery-service send to state-service on {@code route.outcomes} and {@code route.usage}. Kafka is a trust boundary: a producer that can write a state topic but does not hold
 * state-service's private key cannot add an access key, flip a credential or redirect one, because
 * readers apply only records whose signature verifies ({@link StateVerifier}).
 *
 * <p>The signed message binds the topic, the record key and the value, so a signed value cannot be
 * replayed under another key (another credential or access key) or on another topic. A tombstone
 * (null value) is signed too, with a marker distinct from any value, so deleting an entry also takes
 * the key. A replay of an <em>older</em> signed record of the same key is harmless: readers only
 * move versions forward; an old signed tombstone can delete an entry until state-service's start-up
 * republication restores it (see docs/security.md).
 */
public final class StateSignature {

    /** Record header with the base64 Ed25519 signature. */
    public static final String SIGNATURE_HEADER = "route-signature";
    /** Record header naming the signing key, matched against the readers' configured public keys. */
    public static final String KEY_ID_HEADER = "route-signature-key";

    /**
     * Which direction a signature speaks for. Each has its own context string in the signed bytes, so
     * a signature made for one is never valid for the other, even under the same key pair: a
     * producer's record can never pass as state-service's, nor the reverse.
     */
    public enum Domain {
        /** state-service's records on the compacted state topics, verified by the gateways. */
        STATE("route-state-signature.v1", "state signing"),
        /**
         * What gateway-service and recovery-service send to state-service ({@code route.outcomes},
         * {@code route.usage}), verified by state-service against each producer's public keys.
         */
        PRODUCER("route-producer-signature.v1", "producer signing");

        private final byte[] context;
        private final String label;

        Domain(String context, String label) {
            this.context = context.getBytes(StandardCharsets.UTF_8);
            this.label = label;
        }

        /** How configuration errors name the key ("state signing", "producer signing"). */
        public String label() {
            return label;
        }
    }

    private StateSignature() {}

    static byte[] message(String topic, String key, String value) {
        return message(Domain.STATE, topic, key, value);
    }

    /**
     * The bytes signed for one record: the domain's context string, then topic, key and value, each as a
     * presence byte (0 = null: a tombstone value or a record without key), a 4-byte length and UTF-8.
     */
    static byte[] message(Domain domain, String topic, String key, String value) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(domain.context);
        for (String field : new String[] {topic, key, value}) {
            if (field == null) {
                out.write(0);
                continue;
            }
            byte[] bytes = field.getBytes(StandardCharsets.UTF_8);
            out.write(1);
            out.writeBytes(ByteBuffer.allocate(4).putInt(bytes.length).array());
            out.writeBytes(bytes);
        }
        return out.toByteArray();
    }
}
