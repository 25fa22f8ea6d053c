package io.routegateway.gateway.publish;

import java.nio.charset.StandardCharsets;

import io.routegateway.core.crypto.StateSignature;
import io.routegateway.core.crypto.StateSigner;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;

/**
 * Signs every message this gateway sends on one topic with its producer key ({@link
 * StateSignature.Domain#PRODUCER}): one signature per Kafka message, so a usage batch costs one
 * signature however many records it holds. The topic signed is the channel's configured topic, the
 * one state-service reads the record from.
 */
final class RecordSigning {

    private final StateSigner signer;
    private final String topic;
    private final Header keyIdHeader;

    RecordSigning(StateSigner signer, String topic) {
        if (signer.domain() != StateSignature.Domain.PRODUCER) {
            throw new IllegalArgumentException("the gateway signs with a producer key, not " + signer.domain());
        }
        this.signer = signer;
        this.topic = topic;
        this.keyIdHeader =
                new RecordHeader(StateSignature.KEY_ID_HEADER, signer.keyId().getBytes(StandardCharsets.UTF_8));
    }

    /** The key id header (immutable, shared) and the signature header of one message. */
    Header[] headers(String key, String payload) {
        return new Header[] {
            keyIdHeader,
            new RecordHeader(
                    StateSignature.SIGNATURE_HEADER,
                    signer.sign(topic, key, payload).getBytes(StandardCharsets.UTF_8))
        };
    }

    String topic() {
        return topic;
    }
}
