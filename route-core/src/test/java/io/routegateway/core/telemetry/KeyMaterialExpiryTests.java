package io.routegateway.core.telemetry;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Stores made by the JDK's own keytool, the way operators and cert-manager make them. */
class KeyMaterialExpiryTests {

    private static final String PASSWORD = "s3cret-store-pass";

    @TempDir
    static Path dir;

    private static Path keyStore;
    private static Path trustStore;
    private static String leafPem;
    private static String caPem;

    @BeforeAll
    static void makeStores() throws Exception {
        keyStore = dir.resolve("client.p12");
        // a client key that lapses in 30 days, and a CA that lapses in 400
        keytool(
                "-genkeypair",
                "-alias",
                "client",
                "-keyalg",
                "EC",
                "-groupname",
                "secp256r1",
                "-dname",
                "CN=client",
                "-validity",
                "30",
                "-keystore",
                keyStore.toString(),
                "-storetype",
                "PKCS12",
                "-storepass",
                PASSWORD,
                "-keypass",
                PASSWORD);
        Path caStore = dir.resolve("ca.p12");
        keytool(
                "-genkeypair",
                "-alias",
                "ca",
                "-keyalg",
                "EC",
                "-groupname",
                "secp256r1",
                "-dname",
                "CN=ca",
                "-validity",
                "400",
                "-keystore",
                caStore.toString(),
                "-storetype",
                "PKCS12",
                "-storepass",
                PASSWORD,
                "-keypass",
                PASSWORD);
        leafPem = keytool(
                "-exportcert", "-rfc", "-alias", "client", "-keystore", keyStore.toString(), "-storepass", PASSWORD);
        caPem = keytool("-exportcert", "-rfc", "-alias", "ca", "-keystore", caStore.toString(), "-storepass", PASSWORD);
        trustStore = dir.resolve("trust.jks");
        Files.writeString(dir.resolve("ca.pem"), caPem);
        Files.writeString(dir.resolve("client.pem"), leafPem);
        for (String alias : List.of("ca", "client")) {
            keytool(
                    "-importcert",
                    "-noprompt",
                    "-alias",
                    alias,
                    "-file",
                    dir.resolve(alias + ".pem").toString(),
                    "-keystore",
                    trustStore.toString(),
                    "-storetype",
                    "JKS",
                    "-storepass",
                    PASSWORD);
        }
    }

    @Test
    void aPemBundleCountsEveryCertificateAndSkipsItsPrivateKey() {
        String bundle =
                "-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIB0Ag2c4mVh2wqQ9pW2x1A==\n-----END PRIVATE KEY-----\n"
                        + caPem + leafPem;

        List<Instant> ends = KeyMaterialExpiry.notAfters(bundle.getBytes(StandardCharsets.US_ASCII), "pem", null);

        assertThat(ends).hasSize(2);
        assertThat(Duration.between(Instant.now(), ends.get(0)).toDays()).isBetween(398L, 400L);
        assertThat(Duration.between(Instant.now(), ends.get(1)).toDays()).isBetween(28L, 30L);
    }

    @Test
    void theSoonestCertificateOfAStoreIsWhatIsLeft() throws IOException {
        List<Instant> ends = KeyMaterialExpiry.notAfters(Files.readAllBytes(trustStore), "JKS", PASSWORD.toCharArray());
        Instant now = Instant.now();

        double left = KeyMaterialExpiry.secondsLeft(ends, now).orElseThrow();

        assertThat(ends).hasSize(2);
        assertThat(left)
                .isEqualTo(Duration.between(
                                        now,
                                        ends.stream().min(Instant::compareTo).orElseThrow())
                                .toMillis()
                        / 1000.0);
        assertThat(left / 86_400).isBetween(28.0, 30.0);
    }

    @Test
    void aPkcs12KeyStoreCountsItsKeysChain() throws IOException {
        List<Instant> ends =
                KeyMaterialExpiry.notAfters(Files.readAllBytes(keyStore), "PKCS12", PASSWORD.toCharArray());

        assertThat(ends).hasSize(1);
        assertThat(Duration.between(Instant.now(), ends.get(0)).toDays()).isBetween(28L, 30L);
    }

    @Test
    void aLapsedCertificateLeavesNegativeSecondsAndNoCertificateLeavesNone() {
        Instant now = Instant.parse("2026-12-06T12:00:00Z");
        List<Instant> ends = List.of(now.minus(3, ChronoUnit.DAYS), now.plus(5, ChronoUnit.DAYS));

        assertThat(KeyMaterialExpiry.secondsLeft(ends, now).orElseThrow()).isEqualTo(-3 * 86_400.0);
        assertThat(KeyMaterialExpiry.secondsLeft(List.of(), now)).isEmpty();
    }

    @Test
    void aWrongPasswordOrAStoreOfAnotherTypeIsRefusedWithoutThePasswordInTheMessage() throws IOException {
        byte[] p12 = Files.readAllBytes(keyStore);

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

    private static String keytool(String... args) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as("keytool %s: %s", args[0], output).isZero();
        return output;
    }
}
