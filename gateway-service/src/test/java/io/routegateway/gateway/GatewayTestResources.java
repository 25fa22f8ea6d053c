package io.routegateway.gateway;

import io.quarkus.test.common.QuarkusTestResource;
import io.routegateway.testsupport.KafkaBrokerResource;

/** Every {@code @QuarkusTest} of this module runs against one real Kafka broker per run. */
@QuarkusTestResource(value = KafkaBrokerResource.class, restrictToAnnotatedClass = false)
final class GatewayTestResources {

    private GatewayTestResources() {}
}
