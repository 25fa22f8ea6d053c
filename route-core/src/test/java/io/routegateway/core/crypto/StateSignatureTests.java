package io.routegateway.core.crypto;

import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.util.Base64;

import io.routegateway.core.crypto.StateVerifier.Result;
import io.routegateway.core.event.Topics;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StateSignatureTests {

    /** The fixed test pair the services' %test profiles use. */
    static final String TEST_PRIVATE = "MC4CAQAwBQYDK2VwBCIEIFVRZTuRtIVA3uSyuHMgFsSnICbjZjkhfMUX/cUfYe1P";

    static final String TEST_PUBLIC = "MCowBQYDK2VwAyEAxjNvnsJavKodrTFRxNBuceojR4W4BORHWBaUyi3wSng=";

    static final String VALUE = "{\"credential_id\":\"c1\",\"version\":3,\"base_url\":\"https://api.example.com\"}";

    final StateSigner signer = StateSigner.fromBase64Pkcs8("k1", TEST_PRIVATE);
    final StateVerifier verifier = StateVerifier.fromSpec("k1=" + TEST_PUBLIC);

    @Test
    void aSignedRecordVerifies() {
        String signature = signer.sign(Topics.CREDENTIAL_STATE, "c1", VALUE);
        assertThat(verifier.verify(Topics.CREDENTIAL_STATE, "c1", VALUE, "k1", signature))
                .isEqualTo(Result.VALID);
    }

    @Test
    void aTamperedValueDoesNotVerify() {
        String signature = signer.sign(Topics.CREDENTIAL_STATE, "c1", VALUE);
        String redirected = VALUE.replace("api.example.com", "attacker.example");
        assertThat(verifier.verify(Topics.CREDENTIAL_STATE, "c1", redirected, "k1", signature))
                .isEqualTo(Result.INVALID);
    }

    @Test
    void aSignedValueDoesNotVerifyUnderAnotherKey() {
        String signature = signer.sign(Topics.CREDENTIAL_STATE, "c1", VALUE);
        assertThat(verifier.verify(Topics.CREDENTIAL_STATE, "c2", VALUE, "k1", signature))
                .isEqualTo(Result.INVALID);
        assertThat(verifier.verify(Topics.CREDENTIAL_STATE, null, VALUE, "k1", signature))
                .isEqualTo(Result.INVALID);
    }

    @Test
    void aSignedValueDoesNotVerifyOnAnotherTopic() {
        String signature = signer.sign(Topics.ACCESS_KEYS, "k1", VALUE);
        assertThat(verifier.verify(Topics.GROUPS, "k1", VALUE, "k1", signature)).isEqualTo(Result.INVALID);
    }

    @Test
    void tombstonesAreSignedAndBoundToTheirKey() {
        String signature = signer.sign(Topics.CREDENTIAL_STATE, "c1", null);
        assertThat(verifier.verify(Topics.CREDENTIAL_STATE, "c1", null, "k1", signature))
                .isEqualTo(Result.VALID);
        assertThat(verifier.verify(Topics.CREDENTIAL_STATE, "c2", null, "k1", signature))
                .isEqualTo(Result.INVALID);
        // a tombstone's signature is not one of an empty value, and the other way round
        assertThat(verifier.verify(Topics.CREDENTIAL_STATE, "c1", "", "k1", signature))
                .isEqualTo(Result.INVALID);
        String empty = signer.sign(Topics.CREDENTIAL_STATE, "c1", "");
        assertThat(verifier.verify(Topics.CREDENTIAL_STATE, "c1", null, "k1", empty))
                .isEqualTo(Result.INVALID);
    }

    @Test
    void missingHeadersUnknownKeysAndGarbageAreRefused() {
        String signature = signer.sign(Topics.CREDENTIAL_STATE, "c1", VALUE);
        assertThat(verifier.verify(Topics.CREDENTIAL_STATE, "c1", VALUE, null, null))
                .isEqualTo(Result.MISSING);
        assertThat(verifier.verify(Topics.CREDENTIAL_STATE, "c1", VALUE, "k1", null))
                .isEqualTo(Result.MISSING);
        assertThat(verifier.verify(Topics.CREDENTIAL_STATE, "c1", VALUE, null, signature))
                .isEqualTo(Result.MISSING);
        assertThat(verifier.verify(Topics.CREDENTIAL_STATE, "c1", VALUE, "k9", signature))
                .isEqualTo(Result.UNKNOWN_KEY);
        assertThat(verifier.verify(Topics.CREDENTIAL_STATE, "c1", VALUE, "k1", "not base64!"))
                .isEqualTo(Result.INVALID);
        assertThat(verifier.verify(Topics.CREDENTIAL_STATE, "c1", VALUE, "k1", "AAAA"))
                .isEqualTo(Result.INVALID);
    }

    @Test
    void aRecordSignedByAnotherKeyUnderAKnownIdIsRefused() throws Exception {
        StateSigner forger = StateSigner.fromBase64Pkcs8("k1", privateOf(newPair()));
        String signature = forger.sign(Topics.CREDENTIAL_STATE, "c1", VALUE);
        assertThat(verifier.verify(Topics.CREDENTIAL_STATE, "c1", VALUE, "k1", signature))
                .isEqualTo(Result.INVALID);
    }

    @Test
    void rotationAcceptsBothConfiguredKeys() throws Exception {
        KeyPair next = newPair();
        StateVerifier both = StateVerifier.fromSpec(" k1=" + TEST_PUBLIC + " , k2=" + publicOf(next) + " ");
        StateSigner newSigner = StateSigner.fromBase64Pkcs8("k2", privateOf(next));
        assertThat(both.keyIds()).containsExactlyInAnyOrder("k1", "k2");
        assertThat(both.verify(Topics.GROUPS, "g", VALUE, "k1", signer.sign(Topics.GROUPS, "g", VALUE)))
                .isEqualTo(Result.VALID);
        assertThat(both.verify(Topics.GROUPS, "g", VALUE, "k2", newSigner.sign(Topics.GROUPS, "g", VALUE)))
                .isEqualTo(Result.VALID);
        // the key id selects the key: k1's signature under k2's id fails
        assertThat(both.verify(Topics.GROUPS, "g", VALUE, "k2", signer.sign(Topics.GROUPS, "g", VALUE)))
                .isEqualTo(Result.INVALID);
        // once k1 is retired, what it signed is refused
        StateVerifier retired = StateVerifier.fromSpec("k2=" + publicOf(next));
        assertThat(retired.verify(Topics.GROUPS, "g", VALUE, "k1", signer.sign(Topics.GROUPS, "g", VALUE)))
                .isEqualTo(Result.UNKNOWN_KEY);
    }

    @Test
    void badConfigurationIsRefusedWithoutEchoingKeys() {
        assertThatThrownBy(() -> StateVerifier.fromSpec("")).hasMessageContaining("no state signing public key");
        assertThatThrownBy(() -> StateVerifier.fromSpec("k1")).hasMessageContaining("keyId=base64");
        assertThatThrownBy(() -> StateVerifier.fromSpec("=" + TEST_PUBLIC)).hasMessageContaining("keyId=base64");
        assertThatThrownBy(() -> StateVerifier.fromSpec("k1=" + TEST_PUBLIC + ",k1=" + TEST_PUBLIC))
                .hasMessageContaining("twice");
        assertThatThrownBy(() -> StateVerifier.fromSpec("k1=bm90IGEga2V5")).hasMessageContaining("X.509 Ed25519");
        assertThatThrownBy(() -> StateSigner.fromBase64Pkcs8("k1", null)).hasMessageContaining("not configured");
        assertThatThrownBy(() -> StateSigner.fromBase64Pkcs8("k1", TEST_PUBLIC))
                .hasMessageContaining("PKCS#8")
                .hasMessageNotContaining(TEST_PUBLIC);
        assertThatThrownBy(() -> StateSigner.fromBase64Pkcs8("bad id", TEST_PRIVATE))
                .hasMessageContaining("key id");
    }

    private static KeyPair newPair() throws Exception {
        return KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
    }

    private static String privateOf(KeyPair pair) {
        return Base64.getEncoder().encodeToString(pair.getPrivate().getEncoded());
    }

    private static String publicOf(KeyPair pair) {
        return Base64.getEncoder().encodeToString(pair.getPublic().getEncoded());
    }
}
