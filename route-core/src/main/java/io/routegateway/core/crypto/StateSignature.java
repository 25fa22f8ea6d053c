package io.routegateway.core.crypto;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The Ed25519 signature state-service puts on every record of the compacted state topics, and what
 * it covers. Kafka is a trust boundary: a producer that can write a state topic but does not hold
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

    private static final byte[] CONTEXT = "route-state-signature.v1".getBytes(StandardCharsets.UTF_8);

    private StateSignature() {}

    /**
     * The bytes signed for one record: a context string, then topic, key and value, each as a
     * presence byte (0 = null: a tombstone value or a record without key), a 4-byte length and UTF-8.
     */
    static byte[] message(String topic, String key, String value) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(CONTEXT);
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
