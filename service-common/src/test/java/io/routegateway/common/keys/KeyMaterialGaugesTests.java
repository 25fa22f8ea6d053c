package io.routegateway.common.keys;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.smallrye.config.SmallRyeConfigBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The gauge over the Kafka client's real stores (fixtures made by keytool) and a service's own key material. */
class KeyMaterialGaugesTests {

    private static final String PASSWORD = "fixture-store-pass";

    @TempDir
    Path dir;

    @Test
    void eachConfiguredStoreAndSourceHasASeriesOfSecondsUntilItsSoonestCertificateLapses() throws Exception {
        // fixtures made by keytool: client.p12 / client.pem end 2026-01-31, renewed.pem 2026-08-08
        Path keyStore = copy("client.p12");
        Path trustPem = copy("client.pem");
        Instant rotateBy = Instant.parse("2026-04-01T00:00:00Z");
        MutableClock clock = new MutableClock(Instant.parse("2026-01-21T00:00:00Z"));
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

        assertThat(days(registry, "kafka_truststore")).isEqualTo(10.0);
        assertThat(days(registry, "kafka_keystore")).isEqualTo(10.0);
        assertThat(days(registry, "state_signing_key")).isEqualTo(70.0);
        assertThat(registry.find("route.key.material.expiry.seconds")
                        .tag("material", "unconfigured")
                        .gauge())
                .isNull();

        // renewed in place (cert-manager rewrites the mounted file): the next reading after ten minutes sees it
        Files.write(trustPem, resource("renewed.pem"));
        clock.advance(Duration.ofMinutes(5));
        assertThat(days(registry, "kafka_truststore")).isCloseTo(10.0, within(0.01));
        clock.advance(Duration.ofMinutes(5));
        assertThat(days(registry, "kafka_truststore")).isCloseTo(199.0, within(0.01));

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

    private Path copy(String name) throws IOException {
        Path file = dir.resolve(name);
        Files.write(file, resource(name));
        return file;
    }

    private static byte[] resource(String name) throws IOException {
        try (InputStream in = KeyMaterialGaugesTests.class.getResourceAsStream("/keymaterial/" + name)) {
            assertThat(in).as(name).isNotNull();
            return in.readAllBytes();
        }
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
