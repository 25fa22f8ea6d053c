package io.routegateway.testsupport;

import java.nio.charset.StandardCharsets;
import java.util.Map;

import io.routegateway.core.crypto.StateSignature;
import io.routegateway.core.crypto.StateSigner;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerInterceptor;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * The %test producer keys of gateway-service and recovery-service, and signing as they sign what
 * they send to state-service ({@code route.outcomes}, {@code route.usage}; {@link
 * StateSignature.Domain#PRODUCER}). A test that feeds state-service records stands in for a gateway,
 * so it signs them with the gateway's %test key: by hand ({@link #headers}), or by adding {@link
 * Interceptor} to its producer ({@link #signEverything}), which signs every record sent without a
 * signature of its own. A test of forged records uses a producer without it.
 */
public final class ProducerSigning {

    /** The gateway's %test key id (its default) and pair. */
    public static final String GATEWAY_KEY_ID = "gateway-k1";

    public static final String GATEWAY_PRIVATE_KEY = "MC4CAQAwBQYDK2VwBCIEICnFtW7N9evTTjwTt5rJbdTK3F74pDfeaCBomm6OSyHI";
    public static final String GATEWAY_PUBLIC_KEY = "MCowBQYDK2VwAyEAyL++vtLwIJIfzGajycvV3kZzyNJ4oMg1S/7M8jimpis=";

    /** recovery-service's %test key id (its default) and pair. */
    public static final String RECOVERY_KEY_ID = "recovery-k1";

    public static final String RECOVERY_PRIVATE_KEY =
            "MC4CAQAwBQYDK2VwBCIEIIqIuK1EmnwR8gfjrpyZmEyYgFaGj8JMdRF+qWCZOc39";
    public static final String RECOVERY_PUBLIC_KEY = "MCowBQYDK2VwAyEAot+8Dtjw5MCIBGPh3tC1UKePMbj2MPIfO6K1FcfJcVU=";

    /**
     * A pair no service is configured with: a compromised pod's own key, or an attacker's, which
     * state-service must refuse as an unknown key when it claims an unknown id, and as invalid when
     * it claims a known one.
     */
    public static final String ROGUE_PRIVATE_KEY = "MC4CAQAwBQYDK2VwBCIEIELZXoavCRcATXai81+0DP+q3yXwW1mioGTgC/KlKCeV";

    /** What state-service's %test profile holds ({@code route.producer-signing.public-keys}). */
    public static final String PUBLIC_KEYS =
            GATEWAY_KEY_ID + "=" + GATEWAY_PUBLIC_KEY + "," + RECOVERY_KEY_ID + "=" + RECOVERY_PUBLIC_KEY;

    private static final StateSigner GATEWAY =
            StateSigner.fromBase64Pkcs8(StateSignature.Domain.PRODUCER, GATEWAY_KEY_ID, GATEWAY_PRIVATE_KEY);

    private ProducerSigning() {}

    /** The gateway's %test signer. */
    public static StateSigner gateway() {
        return GATEWAY;
    }

    /** A signer under {@code keyId} with the rogue key. */
    public static StateSigner rogue(String keyId) {
        return StateSigner.fromBase64Pkcs8(StateSignature.Domain.PRODUCER, keyId, ROGUE_PRIVATE_KEY);
    }

    /** The signature headers {@code signer} puts on one record. */
    public static Headers headers(StateSigner signer, String topic, String key, String value) {
        RecordHeaders headers = new RecordHeaders();
        add(headers, signer, topic, key, value);
        return headers;
    }

    /** The gateway's signature headers for one record. */
    public static Headers headers(String topic, String key, String value) {
        return headers(GATEWAY, topic, key, value);
    }

    /** A record signed by the gateway's %test key. */
    public static ProducerRecord<String, String> signed(String topic, String key, String value) {
        return new ProducerRecord<>(topic, null, key, value, headers(topic, key, value));
    }

    /** Adds {@link Interceptor} to a producer's properties: every record it sends unsigned is signed. */
    public static void signEverything(Map<Object, Object> producerProperties) {
        producerProperties.put(ProducerConfig.INTERCEPTOR_CLASSES_CONFIG, Interceptor.class.getName());
    }

    private static void add(Headers headers, StateSigner signer, String topic, String key, String value) {
        headers.add(StateSignature.KEY_ID_HEADER, signer.keyId().getBytes(StandardCharsets.UTF_8));
        headers.add(
                StateSignature.SIGNATURE_HEADER, signer.sign(topic, key, value).getBytes(StandardCharsets.UTF_8));
    }

    /** Signs, with the gateway's %test key, every record that carries no signature header yet. */
    public static final class Interceptor implements ProducerInterceptor<String, String> {

        @Override
        public ProducerRecord<String, String> onSend(ProducerRecord<String, String> record) {
            Header existing = record.headers().lastHeader(StateSignature.SIGNATURE_HEADER);
            if (existing != null) {
                return record;
            }
            RecordHeaders headers = new RecordHeaders(record.headers().toArray());
            add(headers, GATEWAY, record.topic(), record.key(), record.value());
            return new ProducerRecord<>(
                    record.topic(), record.partition(), record.timestamp(), record.key(), record.value(), headers);
        }

        @Override
        public void onAcknowledgement(RecordMetadata metadata, Exception exception) {}

        @Override
        public void close() {}

        @Override
        public void configure(Map<String, ?> configs) {}
    }
}
