package io.routegateway.common.upstream;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import io.quarkus.arc.DefaultBean;
import io.vertx.core.Vertx;

/** The {@link UpstreamResolver} of a running service: the Vert.x instance's (a test may replace it). */
@Singleton
public class UpstreamResolvers {

    @Produces
    @DefaultBean
    @Singleton
    UpstreamResolver resolver(Vertx vertx) {
        return UpstreamResolver.of(vertx);
    }
}
