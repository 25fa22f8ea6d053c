package io.routegateway.core.crypto;

import io.routegateway.core.crypto.StateSignature.Domain;
import io.routegateway.core.crypto.StateVerifier.Result;
import io.routegateway.core.event.Topics;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The reverse direction: what gateway-service and recovery-service send to state-service, each
 * under its own key, verified by state-service against the producers' public keys.
 */
class ProducerSignatureTests {

    static final String GATEWAY_PRIVATE = "MC4CAQAwBQYDK2VwBCIEICnFtW7N9evTTjwTt5rJbdTK3F74pDfeaCBomm6OSyHI";
    static final String GATEWAY_PUBLIC = "MCowBQYDK2VwAyEAyL++vtLwIJIfzGajycvV3kZzyNJ4oMg1S/7M8jimpis=";
    static final String RECOVERY_PRIVATE = "MC4CAQAwBQYDK2VwBCIEIIqIuK1EmnwR8gfjrpyZmEyYgFaGj8JMdRF+qWCZOc39";
    static final String RECOVERY_PUBLIC = "MCowBQYDK2VwAyEAot+8Dtjw5MCIBGPh3tC1UKePMbj2MPIfO6K1FcfJcVU=";

    static final String OUTCOME =
            "{\"type\":\"credential_failure\",\"credential_id\":\"c1\",\"reason_code\":\"auth_revoked\"}";
    static final String USAGE_BATCH = "[{\"request_id\":\"r1\",\"cost_micros\":10},{\"request_id\":\"r2\"}]";

    final StateSigner gateway = StateSigner.fromBase64Pkcs8(Domain.PRODUCER, "gateway-k1", GATEWAY_PRIVATE);
    final StateSigner recovery = StateSigner.fromBase64Pkcs8(Domain.PRODUCER, "recovery-k1", RECOVERY_PRIVATE);
    final StateVerifier stateService =
            StateVerifier.fromSpec(Domain.PRODUCER, "gateway-k1=" + GATEWAY_PUBLIC + ",recovery-k1=" + RECOVERY_PUBLIC);

    @Test
    void eachProducersRecordsVerifyUnderItsOwnKeyId() {
        assertThat(stateService.verify(
                        Topics.OUTCOMES, "c1", OUTCOME, "gateway-k1", gateway.sign(Topics.OUTCOMES, "c1", OUTCOME)))
                .isEqualTo(Result.VALID);
        assertThat(stateService.verify(
                        Topics.OUTCOMES, "c1", OUTCOME, "recovery-k1", recovery.sign(Topics.OUTCOMES, "c1", OUTCOME)))
                .isEqualTo(Result.VALID);
        // a usage batch is one message with a null key: one signature covers the whole batch
        assertThat(stateService.verify(
                        Topics.USAGE, null, USAGE_BATCH, "gateway-k1", gateway.sign(Topics.USAGE, null, USAGE_BATCH)))
                .isEqualTo(Result.VALID);
    }

    @Test
    void aProducerCannotSignUnderAnotherProducersKeyId() {
        // the gateway's signature presented as recovery's: the header names a key that did not sign
        String signature = gateway.sign(Topics.OUTCOMES, "c1", OUTCOME);
        assertThat(stateService.verify(Topics.OUTCOMES, "c1", OUTCOME, "recovery-k1", signature))
                .isEqualTo(Result.INVALID);
    }

    @Test
    void unsignedUnknownKeyTamperedAndWrongTopicRecordsDoNotVerify() {
        String signature = gateway.sign(Topics.OUTCOMES, "c1", OUTCOME);
        assertThat(stateService.verify(Topics.OUTCOMES, "c1", OUTCOME, null, null))
                .isEqualTo(Result.MISSING);
        assertThat(stateService.verify(Topics.OUTCOMES, "c1", OUTCOME, "gateway-k9", signature))
                .isEqualTo(Result.UNKNOWN_KEY);
        assertThat(stateService.verify(
                        Topics.OUTCOMES,
                        "c1",
                        OUTCOME.replace("auth_revoked", "quota_exhausted"),
                        "gateway-k1",
                        signature))
                .isEqualTo(Result.INVALID);
        assertThat(stateService.verify(Topics.OUTCOMES, "c2", OUTCOME, "gateway-k1", signature))
                .isEqualTo(Result.INVALID);
        assertThat(stateService.verify(Topics.USAGE, "c1", OUTCOME, "gateway-k1", signature))
                .isEqualTo(Result.INVALID);
        assertThat(stateService.verify(Topics.OUTCOMES, "c1", OUTCOME, "gateway-k1", "not base64!"))
                .isEqualTo(Result.INVALID);
    }

    @Test
    void aStateSignatureNeverPassesAsAProducersNorTheReverse() {
        // even under one key pair, the two domains sign different bytes
        StateSigner asState = StateSigner.fromBase64Pkcs8(Domain.STATE, "gateway-k1", GATEWAY_PRIVATE);
        StateVerifier gatewayReader = StateVerifier.fromSpec(Domain.STATE, "gateway-k1=" + GATEWAY_PUBLIC);
        assertThat(stateService.verify(
                        Topics.OUTCOMES, "c1", OUTCOME, "gateway-k1", asState.sign(Topics.OUTCOMES, "c1", OUTCOME)))
                .isEqualTo(Result.INVALID);
        assertThat(gatewayReader.verify(
                        Topics.CREDENTIAL_STATE,
                        "c1",
                        OUTCOME,
                        "gateway-k1",
                        gateway.sign(Topics.CREDENTIAL_STATE, "c1", OUTCOME)))
                .isEqualTo(Result.INVALID);
        assertThat(stateService.domain()).isEqualTo(Domain.PRODUCER);
        assertThat(gateway.domain()).isEqualTo(Domain.PRODUCER);
    }

    @Test
    void configurationErrorsNameTheProducerKeyAndNeverEchoIt() {
        assertThatThrownBy(() -> StateSigner.fromBase64Pkcs8(Domain.PRODUCER, "gateway-k1", " "))
                .hasMessage("producer signing private key is not configured");
        assertThatThrownBy(() -> StateSigner.fromBase64Pkcs8(Domain.PRODUCER, "gateway-k1", "c2VjcmV0LXRleHQ="))
                .hasMessage("producer signing private key is not a base64 PKCS#8 Ed25519 key")
                .message()
                .doesNotContain("c2VjcmV0LXRleHQ=");
        assertThatThrownBy(() -> StateVerifier.fromSpec(Domain.PRODUCER, ""))
                .hasMessage("no producer signing public key is configured");
        assertThatThrownBy(() -> StateVerifier.fromSpec(Domain.PRODUCER, "bad id=" + GATEWAY_PUBLIC))
                .hasMessageContaining("producer signing key id");
        assertThatThrownBy(
                        () -> StateVerifier.fromSpec(Domain.PRODUCER, "g=" + GATEWAY_PUBLIC + ",g=" + RECOVERY_PUBLIC))
                .hasMessage("producer signing key id g is configured twice");
    }

    @Test
    void severalKeysPerProducerAllowRotation() {
        StateVerifier rotating = StateVerifier.fromSpec(
                Domain.PRODUCER, "gateway-k1=" + GATEWAY_PUBLIC + ",gateway-k2=" + RECOVERY_PUBLIC);
        StateSigner next = StateSigner.fromBase64Pkcs8(Domain.PRODUCER, "gateway-k2", RECOVERY_PRIVATE);
        assertThat(rotating.keyIds()).containsExactlyInAnyOrder("gateway-k1", "gateway-k2");
        assertThat(rotating.verify(
                        Topics.OUTCOMES, "c1", OUTCOME, "gateway-k1", gateway.sign(Topics.OUTCOMES, "c1", OUTCOME)))
                .isEqualTo(Result.VALID);
        assertThat(rotating.verify(
                        Topics.OUTCOMES, "c1", OUTCOME, "gateway-k2", next.sign(Topics.OUTCOMES, "c1", OUTCOME)))
                .isEqualTo(Result.VALID);
    }
}
