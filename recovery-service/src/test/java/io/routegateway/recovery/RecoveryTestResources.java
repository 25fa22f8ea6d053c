package io.routegateway.recovery;

import io.quarkus.test.common.QuarkusTestResource;
import io.routegateway.recovery.support.RouteSchemaDatabaseResource;
import io.routegateway.testsupport.KafkaBrokerResource;

/**
 * Every {@code @QuarkusTest} of this module runs against one real Kafka broker and one fresh
 * PostgreSQL database per run, migrated with state-service's schema.
 */
@QuarkusTestResource(value = KafkaBrokerResource.class, restrictToAnnotatedClass = false)
@QuarkusTestResource(value = RouteSchemaDatabaseResource.class, restrictToAnnotatedClass = false)
final class RecoveryTestResources {

    private RecoveryTestResources() {}
}
