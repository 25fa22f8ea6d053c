package io.routegateway.testsupport;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Starts a real broker in a child JVM, the path that {@link KafkaBrokerResource} takes when no
 * broker is given from outside.
 */
class BrokerProcessTests {

    @Test
    void startsABrokerThatAnswersAndRemovesItOnClose() throws Exception {
        Path dataDir;
        BrokerProcess broker = BrokerProcess.start(KafkaBrokerResource.START_TIMEOUT);
        try {
            dataDir = broker.dataDir();
            try (Admin admin =
                    Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()))) {
                assertThat(admin.describeCluster().nodes().get(30, TimeUnit.SECONDS))
                        .hasSize(1);
            }
        } finally {
            broker.close();
        }

        assertThat(broker.isAlive()).isFalse();
        assertThat(Files.exists(dataDir)).isFalse();
    }

    @Test
    void classpathNamesTheBrokerAndItsLauncher() throws Exception {
        String classpath = BrokerProcess.brokerClasspath();

        assertThat(classpath).contains("kafka_2.13-").contains("kafka-broker");
    }
}
