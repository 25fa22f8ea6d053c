package io.routegateway.gateway.view;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** No public key, no gateway: it never runs in a mode that applies unsigned state. */
class StateVerifierProducerTests {

    @Test
    void aGatewayWithoutAPublicKeyDoesNotStart() {
        StateVerifierProducer producer = new StateVerifierProducer();
        assertThatThrownBy(() -> producer.stateVerifier(() -> ""))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no state signing public key");
        assertThatThrownBy(() -> producer.stateVerifier(() -> " , "))
                .hasMessageContaining("no state signing public key");
        assertThatThrownBy(() -> producer.stateVerifier(() -> "k1=not-a-key"))
                .hasMessageContaining("not a base64 X.509 Ed25519 key");
    }

    @Test
    void aRotationListYieldsAVerifierForEveryKey() {
        String spec = "k1=MCowBQYDK2VwAyEAxjNvnsJavKodrTFRxNBuceojR4W4BORHWBaUyi3wSng=,"
                + "k2=MCowBQYDK2VwAyEAZb/GdEp9qz4J+p2EfK1eQsUnGoiRCSiqJDJAdpib7KY=";
        assertThat(new StateVerifierProducer().stateVerifier(() -> spec).keyIds())
                .containsExactlyInAnyOrder("k1", "k2");
    }
}
