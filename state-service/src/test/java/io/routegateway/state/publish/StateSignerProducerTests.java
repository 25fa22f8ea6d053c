package io.routegateway.state.publish;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** No private key, no state-service: it never publishes unsigned state. */
class StateSignerProducerTests {

    private static StateSigningConfig config(String keyId, String privateKey) {
        return new StateSigningConfig() {
            @Override
            public String privateKey() {
                return privateKey;
            }

            @Override
            public String keyId() {
                return keyId;
            }

            @Override
            public java.util.Optional<java.time.Instant> notAfter() {
                return java.util.Optional.empty();
            }
        };
    }

    @Test
    void aMissingOrMalformedKeyStopsStartUpWithoutEchoingIt() {
        StateSignerProducer producer = new StateSignerProducer();
        assertThatThrownBy(() -> producer.stateSigner(config("k1", " ")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not configured");
        assertThatThrownBy(() -> producer.stateSigner(config("k1", "c2VjcmV0LWJ1dC1ub3QtYS1rZXk=")))
                .hasMessageContaining("PKCS#8")
                .hasMessageNotContaining("c2VjcmV0LWJ1dC1ub3QtYS1rZXk=");
        assertThatThrownBy(() -> producer.stateSigner(
                        config("k 1", "MC4CAQAwBQYDK2VwBCIEIFVRZTuRtIVA3uSyuHMgFsSnICbjZjkhfMUX/cUfYe1P")))
                .hasMessageContaining("key id");
    }

    @Test
    void theConfiguredKeyIdIsWhatTheRecordsName() {
        assertThat(new StateSignerProducer()
                        .stateSigner(config("k2", "MC4CAQAwBQYDK2VwBCIEIFVRZTuRtIVA3uSyuHMgFsSnICbjZjkhfMUX/cUfYe1P"))
                        .keyId())
                .isEqualTo("k2");
    }
}
