package io.routegateway.common.upstream;

import java.net.InetAddress;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.impl.VertxInternal;

/**
 * How the {@link UpstreamClient} turns an upstream's host name into the one address it then judges
 * and connects to. The default asks the Vert.x instance's own address resolver (the resolver its
 * connections would have used: the JDK's, or Vert.x's asynchronous one with {@code
 * quarkus.vertx.resolver.*}), so the address judged is the address connected to and no second
 * lookup happens in between.
 */
@FunctionalInterface
public interface UpstreamResolver {

    /** The address {@code host} resolves to now; a failed future when it does not resolve. */
    Future<InetAddress> resolve(String host);

    /** The Vert.x instance's address resolver. */
    static UpstreamResolver of(Vertx vertx) {
        VertxInternal internal = (VertxInternal) vertx;
        return host -> {
            Promise<InetAddress> promise = Promise.promise();
            internal.resolveAddress(host, promise);
            return promise.future();
        };
    }
}
