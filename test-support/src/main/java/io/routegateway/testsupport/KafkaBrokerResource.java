package io.routegateway.testsupport;

import java.time.Duration;
import java.util.Map;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import org.jboss.logging.Logger;

/**
 * Gives a Quarkus test a real Kafka broker through {@code kafka.bootstrap.servers}.
 *
 * <p>If the system property {@value #BOOTSTRAP_PROPERTY} or the environment variable {@value
 * #BOOTSTRAP_ENV} names a broker, that broker is used and nothing is started: the project's test
 * command starts one broker for every module ({@code route.test.infra=testcontainers} overrides
 * it). Otherwise, as {@link TestInfrastructure} chooses, a Kafka container (one per JVM) is used where
 * a Docker engine answers, or one broker per JVM is started in a child process on free ports and
 * shared by every test class that asks for it; it stops when the last user stops, or with this JVM.
 *
 * <p>Use it module-wide: {@code @QuarkusTestResource(value = KafkaBrokerResource.class,
 * restrictToAnnotatedClass = false)}.
 */
public class KafkaBrokerResource implements QuarkusTestResourceLifecycleManager {

    public static final String BOOTSTRAP_PROPERTY = "kafka.test.bootstrap";
    public static final String BOOTSTRAP_ENV = "KAFKA_TEST_BOOTSTRAP";
    static final Duration START_TIMEOUT = Duration.ofMinutes(2);

    private static final Logger LOG = Logger.getLogger(KafkaBrokerResource.class);
    private static final Object LOCK = new Object();
    private static BrokerProcess shared;
    private static int users;

    private boolean holdsShared;

    @Override
    public Map<String, String> start() {
        String external = externalBootstrap();
        switch (InfraSelection.chooseKafka(TestInfrastructure.setting(), external, TestInfrastructure::dockerAnswers)) {
            case GIVEN -> {
                LOG.infof("Using the Kafka broker at %s", external);
                return Map.of("kafka.bootstrap.servers", external);
            }
            case CONTAINER -> {
                return Map.of("kafka.bootstrap.servers", SharedContainers.kafka());
            }
            case LOCAL -> {
                // a broker in a child JVM, below
            }
        }
        synchronized (LOCK) {
            if (shared == null || !shared.isAlive()) {
                if (shared != null) {
                    shared.close();
                }
                long begin = System.nanoTime();
                BrokerProcess broker = BrokerProcess.start(START_TIMEOUT);
                Runtime.getRuntime().addShutdownHook(new Thread(broker::close, "test-kafka-broker-stop"));
                LOG.infof(
                        "Started a test Kafka broker at %s in %d ms",
                        broker.bootstrapServers(), (System.nanoTime() - begin) / 1_000_000);
                shared = broker;
            }
            users++;
            holdsShared = true;
            return Map.of("kafka.bootstrap.servers", shared.bootstrapServers());
        }
    }

    @Override
    public void stop() {
        synchronized (LOCK) {
            if (!holdsShared) {
                return;
            }
            holdsShared = false;
            users--;
            if (users == 0 && shared != null) {
                shared.close();
                shared = null;
            }
        }
    }

    /** The broker given from outside (system property first, then environment), or null. */
    static String externalBootstrap() {
        String property = System.getProperty(BOOTSTRAP_PROPERTY);
        if (property != null && !property.isBlank()) {
            return property.trim();
        }
        String env = System.getenv(BOOTSTRAP_ENV);
        if (env != null && !env.isBlank()) {
            return env.trim();
        }
        return null;
    }
}
