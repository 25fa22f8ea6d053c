package io.routegateway.state;

import io.quarkus.test.common.QuarkusTestResource;
import io.routegateway.testsupport.KafkaBrokerResource;
import io.routegateway.testsupport.PostgresDatabaseResource;

/**
 * Every {@code @QuarkusTest} of this module runs against one real Kafka broker and one fresh
 * PostgreSQL database per run.
 */
@QuarkusTestResource(value = KafkaBrokerResource.class, restrictToAnnotatedClass = false)
@QuarkusTestResource(value = PostgresDatabaseResource.class, restrictToAnnotatedClass = false)
final class StateTestResources {

    private StateTestResources() {}
}
