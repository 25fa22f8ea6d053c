package io.routegateway.common.keys;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.function.Supplier;

import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Singleton;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.StartupEvent;
import io.routegateway.core.telemetry.KeyMaterialExpiry;
import org.eclipse.microprofile.config.Config;
import org.jboss.logging.Logger;

/**
 * {@code route_key_material_expiry_seconds{material}}: seconds until the soonest certificate of each configured
 * store lapses (negative once it has), for the alerts RouteKeyMaterialExpiringSoon and RouteKeyMaterialExpired.
 * The Kafka client's stores come from its own settings ({@code kafka.ssl.truststore.*}, {@code
 * kafka.ssl.keystore.*}, the chart's {@code kafka.truststore} and {@code *.kafka.mtls}); a service adds others
 * as {@link KeyMaterialSource} beans. A store is read at start and again every ten minutes, at a scrape, so a
 * certificate renewed in place shows; one that cannot be read is NaN (the Kafka client fails loudly on it too).
 * An unconfigured store has no series.
 */
@Singleton
public class KeyMaterialGauges {

    private static final Logger LOG = Logger.getLogger(KeyMaterialGauges.class);

    void register(
            @Observes StartupEvent start,
            MeterRegistry registry,
            Config config,
            Clock clock,
            Instance<KeyMaterialSource> sources) {
        registerAll(registry, config, clock, sources);
    }

    static void registerAll(MeterRegistry registry, Config config, Clock clock, Iterable<KeyMaterialSource> sources) {
        kafkaStore(config, "truststore").ifPresent(store -> gauge(registry, "kafka_truststore", clock, store));
        kafkaStore(config, "keystore").ifPresent(store -> gauge(registry, "kafka_keystore", clock, store));
        for (KeyMaterialSource source : sources) {
            if (!source.notAfters().isEmpty()) {
                gauge(registry, source.material(), clock, source::notAfters);
            }
        }
    }

    private static void gauge(MeterRegistry registry, String material, Clock clock, Supplier<List<Instant>> read) {
        Reread reread = new Reread(material, read, clock);
        Gauge.builder("route.key.material.expiry.seconds", reread, Reread::secondsLeft)
                .description("seconds until the soonest certificate or key of this material stops being valid")
                .tag("material", material)
                .strongReference(true) // nothing else holds the reading: a weak one would leave NaN after a GC
                .register(registry);
    }

    /** A Kafka client store named by {@code kafka.ssl.<kind>.location}, read with its type and password. */
    private static Optional<Supplier<List<Instant>>> kafkaStore(Config config, String kind) {
        String prefix = "kafka.ssl." + kind + ".";
        return config.getOptionalValue(prefix + "location", String.class)
                .filter(location -> !location.isBlank())
                .map(location -> () -> {
                    String type = config.getOptionalValue(prefix + "type", String.class)
                            .orElse("JKS");
                    char[] password = config.getOptionalValue(prefix + "password", String.class)
                            .map(String::toCharArray)
                            .orElse(null);
                    try {
                        return KeyMaterialExpiry.notAfters(Files.readAllBytes(Path.of(location)), type, password);
                    } catch (IOException e) {
                        throw new IllegalArgumentException(
                                "cannot read " + location + ": " + e.getClass().getSimpleName(), e);
                    }
                });
    }

    /** The last reading of one material, taken again when it is ten minutes old. */
    private static final class Reread {
        private final String material;
        private final Supplier<List<Instant>> read;
        private final Clock clock;
        private Instant readAt;
        private List<Instant> notAfters = List.of();

        Reread(String material, Supplier<List<Instant>> read, Clock clock) {
            this.material = material;
            this.read = read;
            this.clock = clock;
        }

        synchronized double secondsLeft() {
            Instant now = clock.instant();
            if (KeyMaterialExpiry.dueForReread(readAt, now)) {
                readAt = now;
                try {
                    notAfters = read.get();
                } catch (RuntimeException e) {
                    notAfters = List.of();
                    LOG.warnf("Key material %s: %s", material, e.getMessage());
                }
            }
            OptionalDouble left = KeyMaterialExpiry.secondsLeft(notAfters, now);
            return left.isPresent() ? left.getAsDouble() : Double.NaN;
        }
    }
}
