package io.routegateway.testsupport;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class KafkaBrokerResourceTests {

    private final String saved = System.getProperty(KafkaBrokerResource.BOOTSTRAP_PROPERTY);

    @AfterEach
    void restoreProperty() {
        if (saved == null) {
            System.clearProperty(KafkaBrokerResource.BOOTSTRAP_PROPERTY);
        } else {
            System.setProperty(KafkaBrokerResource.BOOTSTRAP_PROPERTY, saved);
        }
    }

    @Test
    void reusesTheBrokerGivenBySystemProperty() {
        System.setProperty(KafkaBrokerResource.BOOTSTRAP_PROPERTY, "127.0.0.1:65000");
        KafkaBrokerResource resource = new KafkaBrokerResource();

        assertThat(resource.start()).containsEntry("kafka.bootstrap.servers", "127.0.0.1:65000");
        resource.stop();
    }
}
