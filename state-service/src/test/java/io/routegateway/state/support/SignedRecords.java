package io.routegateway.state.support;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

import io.routegateway.core.crypto.StateSignature;
import io.routegateway.core.crypto.StateVerifier;
import io.routegateway.state.metrics.StateMetrics;
import io.routegateway.state.signing.ProducerSignatures;
import io.routegateway.testsupport.ProducerSigning;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.record.TimestampType;

import static org.assertj.core.api.Assertions.assertThat;

/** Checks that state-topic records carry a valid signature, as every gateway checks them. */
public final class SignedRecords {

    /** The %test pair's public half, as the gateways' %test profile holds it. */
    private static final StateVerifier VERIFIER =
            StateVerifier.fromSpec("k1=MCowBQYDK2VwAyEAxjNvnsJavKodrTFRxNBuceojR4W4BORHWBaUyi3wSng=");

    private SignedRecords() {}

    /** state-service's check of producer signatures under the %test public keys. */
    public static ProducerSignatures producerSignatures(StateMetrics metrics) {
        return new ProducerSignatures(
                StateVerifier.fromSpec(StateSignature.Domain.PRODUCER, ProducerSigning.PUBLIC_KEYS), metrics);
    }

    /** A consumed record as a gateway sends it: signed with the gateway's %test producer key. */
    public static ConsumerRecord<String, String> producerSigned(
            String topic, int partition, long offset, String key, String value) {
        return new ConsumerRecord<>(
                topic,
                partition,
                offset,
                ConsumerRecord.NO_TIMESTAMP,
                TimestampType.NO_TIMESTAMP_TYPE,
                ConsumerRecord.NULL_SIZE,
                ConsumerRecord.NULL_SIZE,
                key,
                value,
                ProducerSigning.headers(topic, key, value),
                Optional.empty());
    }

    /** Every record (tombstones too) is signed over its topic, key and value with the %test key. */
    public static void assertSigned(List<ConsumerRecord<String, String>> records) {
        assertThat(records)
                .isNotEmpty()
                .allSatisfy(record -> assertThat(VERIFIER.verify(
                                record.topic(),
                                record.key(),
                                record.value(),
                                header(record, StateSignature.KEY_ID_HEADER),
                                header(record, StateSignature.SIGNATURE_HEADER)))
                        .as("%s %s", record.topic(), record.key())
                        .isEqualTo(StateVerifier.Result.VALID));
    }

    private static String header(ConsumerRecord<String, String> record, String name) {
        Header header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }
}
