package io.routegateway.testsupport;

import org.jboss.logging.Logger;
import org.testcontainers.kafka.KafkaContainer;
import org.testcontainers.postgresql.PostgreSQLContainer;

/**
 * The PostgreSQL and Kafka containers of this JVM, started on first use and shared like the local
 * servers are (each test run still gets its own database). Testcontainers' reaper removes them when
 * the JVM ends. Images: {@value #POSTGRES_IMAGE_PROPERTY} and {@value #KAFKA_IMAGE_PROPERTY}
 * override the defaults.
 */
final class SharedContainers {

    static final String POSTGRES_IMAGE_PROPERTY = "route.test.postgres-image";
    static final String KAFKA_IMAGE_PROPERTY = "route.test.kafka-image";
    static final String POSTGRES_IMAGE = "postgres:17-alpine";
    static final String KAFKA_IMAGE = "apache/kafka:4.1.1";

    private static final Logger LOG = Logger.getLogger(SharedContainers.class);
    private static PostgreSQLContainer postgres;
    private static KafkaContainer kafka;

    private SharedContainers() {}

    /** The PostgreSQL container's server, as the database resource addresses the local one. */
    static synchronized PostgresDatabaseResource.Server postgres() {
        if (postgres == null || !postgres.isRunning()) {
            PostgreSQLContainer container =
                    new PostgreSQLContainer(System.getProperty(POSTGRES_IMAGE_PROPERTY, POSTGRES_IMAGE));
            long begin = System.nanoTime();
            container.start();
            LOG.infof(
                    "Started PostgreSQL container %s in %d ms",
                    container.getDockerImageName(), (System.nanoTime() - begin) / 1_000_000);
            postgres = container;
        }
        return new PostgresDatabaseResource.Server(
                postgres.getHost(),
                postgres.getMappedPort(PostgreSQLContainer.POSTGRESQL_PORT),
                postgres.getUsername(),
                postgres.getPassword());
    }

    /** The Kafka container's bootstrap servers; the broker is configured like the local one (3 partitions). */
    static synchronized String kafka() {
        if (kafka == null || !kafka.isRunning()) {
            KafkaContainer container = new KafkaContainer(System.getProperty(KAFKA_IMAGE_PROPERTY, KAFKA_IMAGE))
                    .withEnv("KAFKA_NUM_PARTITIONS", "3")
                    .withEnv("KAFKA_AUTO_CREATE_TOPICS_ENABLE", "true")
                    .withEnv("KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS", "0");
            long begin = System.nanoTime();
            container.start();
            LOG.infof(
                    "Started Kafka container %s at %s in %d ms",
                    container.getDockerImageName(),
                    container.getBootstrapServers(),
                    (System.nanoTime() - begin) / 1_000_000);
            kafka = container;
        }
        return kafka.getBootstrapServers();
    }
}
