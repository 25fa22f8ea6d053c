package io.routegateway.core.telemetry;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Stores made once by the JDK's keytool, the way operators and cert-manager make them (test resources
 * {@code keymaterial/}): {@code client.p12} holds a key whose certificate ends 2026-01-31, {@code ca.pem} a CA
 * ending 2027-02-05, {@code trust.jks} both as trusted entries. Password {@value #PASSWORD}.
 */
class KeyMaterialExpiryTests {

    private static final String PASSWORD = "fixture-store-pass";
    private static final Instant CLIENT_ENDS = Instant.parse("2026-01-31T00:00:00Z");
    private static final Instant CA_ENDS = Instant.parse("2027-02-05T00:00:00Z");

    @Test
    void aPemBundleCountsEveryCertificateAndSkipsItsPrivateKey() {
        String bundle =
                "-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIB0Ag2c4mVh2wqQ9pW2x1A==\n-----END PRIVATE KEY-----\n"
                        + text("ca.pem") + text("client.pem");

        List<Instant> ends = KeyMaterialExpiry.notAfters(bundle.getBytes(StandardCharsets.US_ASCII), "pem", null);

        assertThat(ends).containsExactly(CA_ENDS, CLIENT_ENDS);
    }

    @Test
    void theSoonestCertificateOfAStoreIsWhatIsLeft() {
        List<Instant> ends = KeyMaterialExpiry.notAfters(bytes("trust.jks"), "JKS", PASSWORD.toCharArray());
        Instant now = Instant.parse("2026-01-21T00:00:00Z");

        assertThat(ends).containsExactlyInAnyOrder(CA_ENDS, CLIENT_ENDS);
        assertThat(KeyMaterialExpiry.secondsLeft(ends, now)).hasValue(10 * 86_400.0);
    }

    @Test
    void aPkcs12KeyStoreCountsItsKeysChain() {
        assertThat(KeyMaterialExpiry.notAfters(bytes("client.p12"), "PKCS12", PASSWORD.toCharArray()))
                .containsExactly(CLIENT_ENDS);
    }

    @Test
    void aLapsedCertificateLeavesNegativeSecondsAndNoCertificateLeavesNone() {
        Instant now = Instant.parse("2026-12-06T12:00:00Z");
        List<Instant> ends = List.of(now.minus(3, ChronoUnit.DAYS), now.plus(5, ChronoUnit.DAYS));

        assertThat(KeyMaterialExpiry.secondsLeft(ends, now)).hasValue(-3 * 86_400.0);
        assertThat(KeyMaterialExpiry.secondsLeft(List.of(), now)).isEmpty();
    }

    @Test
    void aWrongPasswordOrAStoreOfAnotherTypeIsRefusedWithoutThePasswordInTheMessage() {
        byte[] p12 = bytes("client.p12");

        assertThatThrownBy(() -> KeyMaterialExpiry.notAfters(p12, "PKCS12", "wrong-pass-XYZ".toCharArray()))
                .isInstanceOf(IllegalArgumentException.class)
                .message()
                .doesNotContain("wrong-pass-XYZ")
                .doesNotContain(PASSWORD);
        assertThatThrownBy(() -> KeyMaterialExpiry.notAfters(p12, "PEM", null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no certificate");
        assertThatThrownBy(() -> KeyMaterialExpiry.notAfters(p12, "BKS", null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("BKS");
        String broken = "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n";
        assertThatThrownBy(() -> KeyMaterialExpiry.notAfters(broken.getBytes(StandardCharsets.US_ASCII), "PEM", null))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> KeyMaterialExpiry.notAfters(new byte[] {0, 1, 2, 3}, "JKS", null))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aStoreIsReadAgainEveryTenMinutes() {
        Instant readAt = Instant.parse("2026-12-06T12:00:00Z");

        assertThat(KeyMaterialExpiry.dueForReread(null, readAt)).isTrue();
        assertThat(KeyMaterialExpiry.dueForReread(readAt, readAt.plus(Duration.ofMinutes(9))))
                .isFalse();
        assertThat(KeyMaterialExpiry.dueForReread(readAt, readAt.plus(Duration.ofMinutes(10))))
                .isTrue();
    }

    private static byte[] bytes(String name) {
        try (InputStream in = KeyMaterialExpiryTests.class.getResourceAsStream("/keymaterial/" + name)) {
            assertThat(in).as(name).isNotNull();
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String text(String name) {
        return new String(bytes(name), StandardCharsets.US_ASCII);
    }
}
