package io.routegateway.common.keys;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.smallrye.config.SmallRyeConfigBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/** The gauge over the Kafka client's real stores (made by keytool) and a service's own key material. */
class KeyMaterialGaugesTests {

    private static final String PASSWORD = "store-pass-7Q";

    @TempDir
    Path dir;

    @Test
    void eachConfiguredStoreAndSourceHasASeriesOfSecondsUntilItsSoonestCertificateLapses() throws Exception {
        Path keyStore = dir.resolve("user.p12");
        keytool(
                "-genkeypair",
                "-alias",
                "user",
                "-keyalg",
                "EC",
                "-groupname",
                "secp256r1",
                "-dname",
                "CN=user",
                "-validity",
                "20",
                "-keystore",
                keyStore.toString(),
                "-storetype",
                "PKCS12",
                "-storepass",
                PASSWORD,
                "-keypass",
                PASSWORD);
        Path trustPem = dir.resolve("ca.crt");
        Files.writeString(
                trustPem,
                keytool(
                        "-exportcert",
                        "-rfc",
                        "-alias",
                        "user",
                        "-keystore",
                        keyStore.toString(),
                        "-storepass",
                        PASSWORD));
        Instant rotateBy = Instant.now().plus(Duration.ofDays(90));
        MutableClock clock = new MutableClock(Instant.now());
        SimpleMeterRegistry registry = new SimpleMeterRegistry();

        KeyMaterialGauges.registerAll(
                registry,
                config(Map.of(
                        "kafka.ssl.truststore.location",
                        trustPem.toString(),
                        "kafka.ssl.truststore.type",
                        "PEM",
                        "kafka.ssl.keystore.location",
                        keyStore.toString(),
                        "kafka.ssl.keystore.type",
                        "PKCS12",
                        "kafka.ssl.keystore.password",
                        PASSWORD)),
                clock,
                List.of(source("state_signing_key", rotateBy), source("unconfigured", null)));

        assertThat(days(registry, "kafka_truststore")).isBetween(19.0, 20.0);
        assertThat(days(registry, "kafka_keystore")).isBetween(19.0, 20.0);
        assertThat(days(registry, "state_signing_key")).isBetween(89.9, 90.0);
        assertThat(registry.find("route.key.material.expiry.seconds")
                        .tag("material", "unconfigured")
                        .gauge())
                .isNull();

        // renewed in place (cert-manager rewrites the mounted file): the next reading after ten minutes sees it
        Path renewed = dir.resolve("renewed.p12");
        keytool(
                "-genkeypair",
                "-alias",
                "user",
                "-keyalg",
                "EC",
                "-groupname",
                "secp256r1",
                "-dname",
                "CN=user",
                "-validity",
                "200",
                "-keystore",
                renewed.toString(),
                "-storetype",
                "PKCS12",
                "-storepass",
                PASSWORD,
                "-keypass",
                PASSWORD);
        Files.writeString(
                trustPem,
                keytool(
                        "-exportcert",
                        "-rfc",
                        "-alias",
                        "user",
                        "-keystore",
                        renewed.toString(),
                        "-storepass",
                        PASSWORD));
        clock.advance(Duration.ofMinutes(5));
        assertThat(days(registry, "kafka_truststore")).isBetween(19.0, 20.0);
        clock.advance(Duration.ofMinutes(5));
        assertThat(days(registry, "kafka_truststore")).isBetween(199.0, 200.0);

        // a store that can no longer be read is NaN, not a stale figure
        Files.write(trustPem, "not a certificate".getBytes(StandardCharsets.US_ASCII));
        clock.advance(Duration.ofMinutes(10));
        assertThat(registry.get("route.key.material.expiry.seconds")
                        .tag("material", "kafka_truststore")
                        .gauge()
                        .value())
                .isNaN();
    }

    @Test
    void withoutKafkaStoresOrSourcesThereIsNoSeries() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();

        KeyMaterialGauges.registerAll(
                registry, config(Map.of("kafka.ssl.truststore.location", " ")), Clock.systemUTC(), List.of());

        assertThat(registry.find("route.key.material.expiry.seconds").gauges()).isEmpty();
    }

    private static double days(SimpleMeterRegistry registry, String material) {
        return registry.get("route.key.material.expiry.seconds")
                        .tag("material", material)
                        .gauge()
                        .value()
                / 86_400;
    }

    private static KeyMaterialSource source(String material, Instant notAfter) {
        return new KeyMaterialSource() {
            @Override
            public String material() {
                return material;
            }

            @Override
            public List<Instant> notAfters() {
                return notAfter == null ? List.of() : List.of(notAfter);
            }
        };
    }

    private static org.eclipse.microprofile.config.Config config(Map<String, String> values) {
        return new SmallRyeConfigBuilder().withDefaultValues(values).build();
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

    private static final class MutableClock extends Clock {
        private Instant now;

        MutableClock(Instant now) {
            this.now = now;
        }

        void advance(Duration by) {
            now = now.plus(by);
        }

        @Override
        public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }
}
